// How the library reads a file it never holds whole: ranges by position, from a Buffer, a
// file on disk or a release's chunks in the database alike.
import { NotAZipError } from './not-a-zip-error.js';

export interface RandomAccessFile {
  size: number;
  /** Exactly `length` bytes from `position` (the library never asks past `size`), in a
   *  Buffer the caller may keep: a download passes it on to the stream as it is. */
  read(position: number, length: number): Promise<Buffer>;
}

/** How much one read asks for when copying or scanning: large enough that a file kept in
 *  database chunks costs few round trips, small enough to keep a download's memory flat. */
export const READ_CHUNK_BYTES = 1024 * 1024;

export function bufferFile(buffer: Buffer): RandomAccessFile {
  return {
    size: buffer.length,
    read: async (position, length) => {
      if (position < 0 || length < 0 || position + length > buffer.length) throw new RangeError(`Read of ${length} bytes at ${position} is outside the ${buffer.length}-byte buffer`);
      return buffer.subarray(position, position + length);
    },
  };
}

/** A read that must stay inside the file (a directory pointing past the end is not a zip). */
export async function readRange(file: RandomAccessFile, position: number, length: number): Promise<Buffer> {
  if (position < 0 || length < 0 || position + length > file.size) throw new NotAZipError(`The zip points past its end (${length} bytes at ${position} of ${file.size})`);
  if (length === 0) return Buffer.alloc(0);
  const bytes = await file.read(position, length);
  if (bytes.length !== length) throw new Error(`The file answered ${bytes.length} bytes where ${length} were asked`);
  return bytes;
}

/**
 * Reads ranges at rising positions through one window of at least READ_CHUNK_BYTES, so a
 * scan of many small entries costs a few large reads and reads each byte about once. A range
 * beyond `end` is refused as a damaged zip.
 */
export class ForwardReader {
  private window: Buffer = Buffer.alloc(0);
  private windowStart = 0;

  constructor(
    private readonly file: RandomAccessFile,
    private readonly end: number,
    private readonly chunk = READ_CHUNK_BYTES,
  ) {}

  /** Some bytes from `position` (at least one, at most `maxLength`): what the window holds, or
   *  a new window read from there. Copying through it slices windows, never joins them. */
  async readSome(position: number, maxLength: number): Promise<Buffer> {
    const windowEnd = this.windowStart + this.window.length;
    if (position < this.windowStart || position >= windowEnd) {
      if (position < this.windowStart) throw new Error('ForwardReader reads at rising positions only');
      if (position >= this.end) throw new NotAZipError(`A read starts past the end of the entries (at ${position})`);
      this.window = await readRange(this.file, position, Math.min(this.chunk, this.end - position));
      this.windowStart = position;
    }
    const from = position - this.windowStart;
    return this.window.subarray(from, Math.min(this.window.length, from + maxLength));
  }

  async read(position: number, length: number): Promise<Buffer> {
    if (position + length > this.end) throw new NotAZipError(`An entry runs past the end of the entries (${length} bytes at ${position})`);
    const windowEnd = this.windowStart + this.window.length;
    if (position >= this.windowStart && position + length <= windowEnd) {
      return this.window.subarray(position - this.windowStart, position - this.windowStart + length);
    }
    if (position < this.windowStart) throw new Error('ForwardReader reads at rising positions only');
    const kept = position < windowEnd ? this.window.subarray(position - this.windowStart) : Buffer.alloc(0);
    const from = position + kept.length;
    const more = await readRange(this.file, from, Math.min(Math.max(length - kept.length, this.chunk), this.end - from));
    this.window = kept.length > 0 ? Buffer.concat([kept, more]) : more;
    this.windowStart = position;
    return this.window.subarray(0, length);
  }
}
