// TEMPORARY stand-in for the jar library (src/lib/jars, built on its own branch): the same
// interface, just enough for the server side to compile and for its non-stamping paths to
// run. It reads a zip's central directory and plugin descriptor, but stamps nothing: stampJar
// sends the jar as it is, readStamps finds entries only. The integrator drops this file
// when the real library lands (commit "TEMPORARY src/lib/jars stand-in").
import { Readable } from 'node:stream';
import { inflateRawSync } from 'node:zlib';

export interface RandomAccessFile {
  size: number;
  read(position: number, length: number): Promise<Buffer>;
}
export type Placeholder = '%%__LICENSING_KEY__%%' | '%%__LICENSING_CUSTOMER__%%' | '%%__LICENSING_DOWNLOAD__%%' | '%%__LICENSING_NONCE__%%';
export type JarIndex = Record<string, never>;
export class NotAZipError extends Error {}

export const bufferFile = (buffer: Buffer): RandomAccessFile => ({
  size: buffer.length,
  read: async (position, length) => buffer.subarray(position, Math.min(buffer.length, position + length)),
});

interface Entry {
  name: string;
  method: number;
  compressedSize: number;
  localOffset: number;
}

async function entries(file: RandomAccessFile): Promise<Entry[]> {
  const tailLength = Math.min(file.size, 65_557);
  const tail = await file.read(file.size - tailLength, tailLength);
  const at = tail.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  if (at < 0 || at + 22 > tail.length) throw new NotAZipError('not a zip: no end of central directory');
  const count = tail.readUInt16LE(at + 10);
  const size = tail.readUInt32LE(at + 12);
  const offset = tail.readUInt32LE(at + 16);
  if (offset + size > file.size) throw new NotAZipError('not a zip: central directory out of bounds');
  const dir = await file.read(offset, size);
  const found: Entry[] = [];
  let p = 0;
  for (let i = 0; i < count; i++) {
    if (p + 46 > dir.length || dir.readUInt32LE(p) !== 0x02014b50) throw new NotAZipError('not a zip: bad central directory');
    const nameLength = dir.readUInt16LE(p + 28);
    found.push({
      name: dir.subarray(p + 46, p + 46 + nameLength).toString('utf8'),
      method: dir.readUInt16LE(p + 10),
      compressedSize: dir.readUInt32LE(p + 20),
      localOffset: dir.readUInt32LE(p + 42),
    });
    p += 46 + nameLength + dir.readUInt16LE(p + 30) + dir.readUInt16LE(p + 32);
  }
  return found;
}

async function contents(file: RandomAccessFile, entry: Entry): Promise<Buffer> {
  const header = await file.read(entry.localOffset, 30);
  if (header.length < 30 || header.readUInt32LE(0) !== 0x04034b50) throw new NotAZipError('not a zip: bad local header');
  const start = entry.localOffset + 30 + header.readUInt16LE(26) + header.readUInt16LE(28);
  const data = await file.read(start, entry.compressedSize);
  try {
    return entry.method === 8 ? inflateRawSync(data) : data;
  } catch {
    throw new NotAZipError(`not a zip: ${entry.name} does not inflate`);
  }
}

export async function indexJar(file: RandomAccessFile): Promise<{ mainClass: string | null; index: JarIndex }> {
  const all = await entries(file);
  for (const name of ['plugin.yml', 'paper-plugin.yml', 'bungee.yml']) {
    const entry = all.find((e) => e.name === name);
    if (!entry) continue;
    const main = /^main:\s*['"]?([^'"\s#]+)/m.exec((await contents(file, entry)).toString('utf8'));
    if (main) return { mainClass: main[1]!, index: {} };
  }
  return { mainClass: null, index: {} };
}

export function stampJar(file: RandomAccessFile, _index: JarIndex, _values: Record<Placeholder, string>, _extra: { name: string; data: Buffer }[]): Readable {
  async function* bytes() {
    for (let position = 0; position < file.size; position += 1 << 20) yield await file.read(position, Math.min(1 << 20, file.size - position));
  }
  return Readable.from(bytes());
}

export async function readStamps(jar: RandomAccessFile, entryNames: string[], _keep: (s: string) => boolean): Promise<{ entries: Record<string, Buffer | null>; constants: string[] }> {
  const all = await entries(jar);
  const found: Record<string, Buffer | null> = {};
  for (const name of entryNames) {
    const entry = all.find((e) => e.name === name);
    found[name] = entry ? await contents(jar, entry) : null;
  }
  return { entries: found, constants: [] };
}
