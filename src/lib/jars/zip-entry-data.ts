// One entry's bytes: its local record (header, name, extra, compressed data) and its content,
// inflated and checked against the directory's size and CRC-32.
import { crc32, inflateRawSync } from 'node:zlib';
import { NotAZipError } from './not-a-zip-error.js';
import { LOCAL_BYTES, LOCAL_SIGNATURE, type ZipEntry } from './zip-directory.js';

export const STORED = 0;
export const DEFLATED = 8;
const ENCRYPTED_FLAG = 0x0001;

export interface Reader {
  read(position: number, length: number): Promise<Buffer>;
}

export interface LocalRecord {
  /** The local header's own extra fields (they may differ from the directory's). */
  localExtra: Buffer;
  compressed: Buffer;
}

/** The local header and compressed data of an entry, read at rising positions. */
export async function readLocalRecord(reader: Reader, entry: ZipEntry): Promise<LocalRecord> {
  const head = await reader.read(entry.localOffset, LOCAL_BYTES);
  if (head.readUInt32LE(0) !== LOCAL_SIGNATURE) throw new NotAZipError(`Entry ${entry.name} has no local header where the directory says`);
  const nameLength = head.readUInt16LE(26);
  const extraLength = head.readUInt16LE(28);
  const dataAt = LOCAL_BYTES + nameLength + extraLength;
  if (entry.localOffset + dataAt + entry.compressedSize > entry.spanEnd) throw new NotAZipError(`Entry ${entry.name} overlaps the next one`);
  const record = await reader.read(entry.localOffset, dataAt + entry.compressedSize);
  return { localExtra: record.subarray(LOCAL_BYTES + nameLength, dataAt), compressed: record.subarray(dataAt) };
}

/** Whether this library can read the entry's content (not encrypted, stored or deflated). */
export const isReadable = (entry: ZipEntry): boolean => (entry.flags & ENCRYPTED_FLAG) === 0 && (entry.method === STORED || entry.method === DEFLATED);

/** The content of a readable entry; a wrong size or CRC-32 is a damaged zip. */
export function contentOf(entry: ZipEntry, compressed: Buffer): Buffer {
  let content: Buffer;
  if (entry.method === STORED) content = compressed;
  else {
    try {
      // Bounded by the size the directory declares: a lying entry cannot inflate into memory.
      content = inflateRawSync(compressed, { maxOutputLength: Math.max(1, entry.uncompressedSize) });
    } catch {
      throw new NotAZipError(`Entry ${entry.name} does not inflate`);
    }
  }
  if (content.length !== entry.uncompressedSize || crc32(content) !== entry.crc32) throw new NotAZipError(`Entry ${entry.name} is damaged (size or CRC-32 differs)`);
  return content;
}
