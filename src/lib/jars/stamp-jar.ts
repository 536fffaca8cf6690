// At download: the jar as a stream, its placeholders replaced, the extra entries added.
//
// Why raw copying and not a zip library: every entry without placeholders (almost all of a
// 30 MB jar) is sent as its original bytes (local header, compressed data, data descriptor),
// read in READ_CHUNK_BYTES ranges and never inflated, so a download costs about what sending
// the file costs. Zip libraries (yauzl to read, yazl/archiver to write) re-compress every
// entry or at best hand back data without its local header; here only the indexed class
// entries are inflated, stamped and deflated again, then a new central directory is written
// with the moved offsets and the new CRCs and sizes. The output is a function of its inputs
// (same file, values and entries: same bytes), so a caller may stamp twice to hash first.
import { Readable } from 'node:stream';
import { crc32, deflateRawSync } from 'node:zlib';
import { encodeModifiedUtf8, replaceUtf8Constants } from './class-constants.js';
import { PLACEHOLDERS, type JarIndex, type Placeholder } from './jar-index.js';
import { ForwardReader, READ_CHUNK_BYTES, type RandomAccessFile } from './random-access.js';
import { prefixEnd, readZipDirectory, type ZipDirectory, type ZipEntry } from './zip-directory.js';
import { DEFLATED, contentOf, readLocalRecord } from './zip-entry-data.js';
import { DATA_DESCRIPTOR_FLAG, UTF8_FLAG, centralRecord, endRecords, localHeader, withoutZip64 } from './zip-write.js';

export interface ExtraEntry {
  name: string;
  data: Buffer;
}

/**
 * Signature files of a signed jar. A stamped class no longer matches the digests they sign,
 * and the JVM refuses to load it ("digest error"): when a signed jar has classes to stamp,
 * the signature files are left out and the jar is delivered unsigned (it loads; plugin jars
 * for Minecraft servers are not signed). A signed jar without placeholders keeps them.
 */
export const isSignatureFile = (name: string): boolean => /^META-INF\/([^/]+\.(SF|RSA|DSA|EC)|SIG-[^/]+)$/i.test(name);

/** Date and time of added entries: the manifest's (else the first entry's), so output repeats. */
function addedEntryTime(dir: ZipDirectory): { time: number; date: number } {
  const model = dir.list.find((e) => e.name === 'META-INF/MANIFEST.MF') ?? dir.list[0];
  return model ? { time: model.time, date: model.date } : { time: 0, date: (1 << 5) | 1 }; // 1980-01-01
}

function addedEntry(extra: ExtraEntry, when: { time: number; date: number }): { entry: ZipEntry; data: Buffer } {
  const data = deflateRawSync(extra.data);
  const rawName = Buffer.from(extra.name, 'utf8');
  const entry: ZipEntry = {
    name: extra.name,
    rawName,
    versionMadeBy: 20,
    versionNeeded: 20,
    flags: UTF8_FLAG,
    method: DEFLATED,
    ...when,
    crc32: crc32(extra.data),
    compressedSize: data.length,
    uncompressedSize: extra.data.length,
    internalAttributes: 0,
    externalAttributes: 0,
    localOffset: 0,
    extra: Buffer.alloc(0),
    comment: Buffer.alloc(0),
    zip64: { uncompressed: false, compressed: false, offset: false },
    spanEnd: 0,
  };
  return { entry, data };
}

/** A class entry with its placeholders replaced: a fresh local header and deflated data. */
async function stampedEntry(reader: ForwardReader, entry: ZipEntry, replacements: ReadonlyMap<string, Buffer>): Promise<{ entry: ZipEntry; bytes: Buffer }> {
  const record = await readLocalRecord(reader, entry);
  const content = replaceUtf8Constants(contentOf(entry, record.compressed), replacements);
  const data = entry.method === DEFLATED ? deflateRawSync(content) : content;
  const stamped: ZipEntry = {
    ...entry,
    flags: entry.flags & ~DATA_DESCRIPTOR_FLAG,
    crc32: crc32(content),
    compressedSize: data.length,
    uncompressedSize: content.length,
    zip64: { ...entry.zip64, uncompressed: false, compressed: false },
  };
  return { entry: stamped, bytes: Buffer.concat([localHeader(stamped, withoutZip64(record.localExtra)), data]) };
}

/** [start, end) as the reader's windows hold it: slices, no copies. */
async function* copyRange(reader: ForwardReader, start: number, end: number): AsyncGenerator<Buffer> {
  for (let at = start; at < end; ) {
    const bytes = await reader.readSome(at, end - at);
    at += bytes.length;
    yield bytes;
  }
}

function checkIndex(file: RandomAccessFile, index: JarIndex, dir: ZipDirectory): Map<number, string> {
  const same = index.format === 1 && index.size === file.size && index.directory.offset === dir.offset && index.directory.size === dir.size && index.directory.entries === dir.entries;
  if (!same) throw new Error('The jar index was made from another file');
  const byOffset = new Map(dir.list.map((e) => [e.localOffset, e.name]));
  for (const s of index.stamp) if (byOffset.get(s.offset) !== s.name) throw new Error(`The jar index names ${s.name} where the file has none`);
  return new Map(index.stamp.map((s) => [s.offset, s.name]));
}

async function* stampedJar(file: RandomAccessFile, index: JarIndex, replacements: ReadonlyMap<string, Buffer>, extras: ExtraEntry[]): AsyncGenerator<Buffer> {
  const dir = await readZipDirectory(file);
  const toStamp = checkIndex(file, index, dir);
  const replaced = new Set(extras.map((e) => e.name));
  const unsign = toStamp.size > 0;
  const leftOut = (e: ZipEntry) => replaced.has(e.name) || (unsign && isSignatureFile(e.name));

  // One forward pass over the entries in READ_CHUNK_BYTES windows: copied ranges and the
  // classes to stamp come out of the same reads (a file in database chunks: few round trips).
  const reader = new ForwardReader(file, dir.offset);
  const written: ZipEntry[] = [];
  let position = prefixEnd(dir); // output bytes so far, counting the pending copy
  let pending: { start: number; end: number } = { start: 0, end: position };
  const flush = () => {
    const range = pending;
    pending = { start: 0, end: 0 };
    return copyRange(reader, range.start, range.end);
  };
  for (const entry of dir.list) {
    if (leftOut(entry)) {
      yield* flush();
    } else if (toStamp.has(entry.localOffset)) {
      yield* flush();
      const stamped = await stampedEntry(reader, entry, replacements);
      written.push({ ...stamped.entry, localOffset: position });
      position += stamped.bytes.length;
      yield stamped.bytes;
    } else {
      if (pending.end !== entry.localOffset) {
        yield* flush();
        pending = { start: entry.localOffset, end: entry.localOffset };
      }
      written.push({ ...entry, localOffset: position });
      pending.end = entry.spanEnd;
      position += entry.spanEnd - entry.localOffset;
    }
  }
  yield* flush();

  const when = addedEntryTime(dir);
  for (const extra of extras) {
    const added = addedEntry(extra, when);
    const bytes = Buffer.concat([localHeader(added.entry, Buffer.alloc(0)), added.data]);
    written.push({ ...added.entry, localOffset: position });
    position += bytes.length;
    yield bytes;
  }

  let directorySize = 0;
  let batch: Buffer[] = [];
  let batchBytes = 0;
  for (const entry of written) {
    const record = centralRecord(entry);
    batch.push(record);
    batchBytes += record.length;
    if (batchBytes >= READ_CHUNK_BYTES) {
      yield Buffer.concat(batch);
      directorySize += batchBytes;
      (batch = []), (batchBytes = 0);
    }
  }
  directorySize += batchBytes;
  yield Buffer.concat([...batch, endRecords(written.length, directorySize, position, dir.comment)]);
}

function encodedValues(values: Record<Placeholder, string>): Map<string, Buffer> {
  return new Map(
    PLACEHOLDERS.map((p) => {
      const value = values[p];
      if (typeof value !== 'string') throw new TypeError(`stampJar needs a value for ${p}`);
      return [p, encodeModifiedUtf8(value)];
    }),
  );
}

function checkedExtras(extraEntries: ExtraEntry[]): ExtraEntry[] {
  const names = new Set<string>();
  for (const e of extraEntries) {
    if (e.name === '' || e.name.startsWith('/') || Buffer.byteLength(e.name) > 0xffff) throw new TypeError(`Not an entry name: ${JSON.stringify(e.name)}`);
    if (names.has(e.name)) throw new TypeError(`Entry ${e.name} is added twice`);
    names.add(e.name);
  }
  return extraEntries;
}

/**
 * The stamped jar. Arguments are checked at once (a TypeError or RangeError is thrown);
 * reading errors, and an index made from another file, arrive as the stream's 'error'.
 * An existing entry named like an added one is replaced.
 */
export function stampJar(file: RandomAccessFile, index: JarIndex, values: Record<Placeholder, string>, extraEntries: ExtraEntry[]): Readable {
  const replacements = encodedValues(values);
  const extras = checkedExtras(extraEntries);
  return Readable.from(stampedJar(file, index, replacements, extras), { objectMode: false });
}
