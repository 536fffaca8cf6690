// One small entry of a zip (a jar) on disk, read through its central directory: the signed
// META-INF/LICENSING-DOWNLOAD.jws a stamped download carries. Stored and deflated entries
// only, no ZIP64 (a jar whose directory needs it reads as "no entry").
import { open } from 'node:fs/promises';
import { inflateRawSync } from 'node:zlib';

const END_OF_DIRECTORY = 0x06054b50;
const DIRECTORY_ENTRY = 0x02014b50;
const LOCAL_HEADER = 0x04034b50;
const END_BYTES = 22;
const MAX_COMMENT = 0xffff;

/** The entry's bytes, or null when the file is not a zip, lacks the entry, or it is larger than `maxBytes`. */
export async function readZipEntry(file: string, name: string, maxBytes: number): Promise<Buffer | null> {
  const handle = await open(file, 'r');
  try {
    const { size } = await handle.stat();
    const read = async (position: number, length: number) => {
      const bytes = Buffer.alloc(length);
      const { bytesRead } = await handle.read(bytes, 0, length, position);
      if (bytesRead !== length) throw new Error('short read');
      return bytes;
    };
    if (size < END_BYTES) return null;
    const tailLength = Math.min(size, END_BYTES + MAX_COMMENT);
    const tail = await read(size - tailLength, tailLength);
    // The end record: the last signature whose comment ends exactly at the end of the file.
    let end = -1;
    for (let i = tailLength - END_BYTES; i >= 0 && end < 0; i -= 1) {
      if (tail.readUInt32LE(i) === END_OF_DIRECTORY && i + END_BYTES + tail.readUInt16LE(i + 20) === tailLength) end = i;
    }
    if (end < 0) return null;
    const dirSize = tail.readUInt32LE(end + 12);
    const dirOffset = tail.readUInt32LE(end + 16);
    if (dirOffset + dirSize > size) return null;
    const dir = await read(dirOffset, dirSize);
    for (let p = 0; p + 46 <= dir.length; ) {
      if (dir.readUInt32LE(p) !== DIRECTORY_ENTRY) return null;
      const method = dir.readUInt16LE(p + 10);
      const compressed = dir.readUInt32LE(p + 20);
      const uncompressed = dir.readUInt32LE(p + 24);
      const nameLength = dir.readUInt16LE(p + 28);
      const local = dir.readUInt32LE(p + 42);
      const entryName = dir.toString('utf8', p + 46, p + 46 + nameLength);
      p += 46 + nameLength + dir.readUInt16LE(p + 30) + dir.readUInt16LE(p + 32);
      if (entryName !== name) continue;
      if (compressed > maxBytes || uncompressed > maxBytes || local + 30 > size) return null;
      const header = await read(local, 30);
      if (header.readUInt32LE(0) !== LOCAL_HEADER) return null;
      const dataAt = local + 30 + header.readUInt16LE(26) + header.readUInt16LE(28);
      if (dataAt + compressed > size) return null;
      const data = await read(dataAt, compressed);
      if (method === 0) return data;
      if (method === 8) return inflateRawSync(data, { maxOutputLength: maxBytes });
      return null;
    }
    return null;
  } catch {
    return null; // damaged: no entry to trust
  } finally {
    await handle.close();
  }
}
