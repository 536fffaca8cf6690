// The one error a caller can show to whoever handed over the file: these bytes are not a zip
// this library can read (no end record, a damaged directory, an entry that does not inflate).
export class NotAZipError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'NotAZipError';
  }
}
