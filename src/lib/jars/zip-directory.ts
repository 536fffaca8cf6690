// The central directory of a zip (APPNOTE 6.3.10 §4.3): its end record (ZIP64 too), then one
// record per entry. Entry names are read as UTF-8, as the JVM reads them. The entries are
// returned in file order with `spanEnd`, where the next entry (or the directory) starts:
// everything in [localOffset, spanEnd) belongs to the entry (header, data, data descriptor),
// which is what lets a stamper copy or drop an entry without reading its header.
import { NotAZipError } from './not-a-zip-error.js';
import { readRange, type RandomAccessFile } from './random-access.js';

const END_SIGNATURE = 0x06054b50;
const ZIP64_LOCATOR_SIGNATURE = 0x07064b50;
const ZIP64_END_SIGNATURE = 0x06064b50;
const CENTRAL_SIGNATURE = 0x02014b50;
export const LOCAL_SIGNATURE = 0x04034b50;

const END_BYTES = 22;
const ZIP64_LOCATOR_BYTES = 20;
const ZIP64_END_BYTES = 56;
const CENTRAL_BYTES = 46;
export const LOCAL_BYTES = 30;
const MAX_COMMENT = 0xffff;
export const ZIP64_EXTRA_ID = 0x0001;

export interface ZipDirectoryPlace {
  /** Where the central directory starts, its length in bytes and its number of records. */
  offset: number;
  size: number;
  entries: number;
}

export interface ZipEntry {
  name: string;
  rawName: Buffer;
  versionMadeBy: number;
  versionNeeded: number;
  flags: number;
  method: number;
  time: number;
  date: number;
  crc32: number;
  compressedSize: number;
  uncompressedSize: number;
  internalAttributes: number;
  externalAttributes: number;
  localOffset: number;
  /** The central record's extra fields without its ZIP64 field (rewritten on output). */
  extra: Buffer;
  comment: Buffer;
  /** Which values the source kept in a ZIP64 field: kept there on output, as readers expect. */
  zip64: { uncompressed: boolean; compressed: boolean; offset: boolean };
  spanEnd: number;
}

export interface ZipDirectory extends ZipDirectoryPlace {
  comment: Buffer;
  /** In file order (rising localOffset). */
  list: ZipEntry[];
}

/** The first bytes before the directory that belong to no entry (a launcher script, say). */
export const prefixEnd = (dir: ZipDirectory): number => dir.list[0]?.localOffset ?? dir.offset;

function safeNumber(value: bigint, what: string): number {
  if (value > BigInt(Number.MAX_SAFE_INTEGER)) throw new NotAZipError(`The zip's ${what} is too large`);
  return Number(value);
}

/** The last bytes of the file: the end records, and often the whole directory, in one read. */
const TAIL_BYTES = 64 * 1024 + END_BYTES + ZIP64_LOCATOR_BYTES + ZIP64_END_BYTES;

type ReadAt = (position: number, length: number) => Promise<Buffer>;

/** Reads from the tail already read where it can, else from the file. */
function tailReader(file: RandomAccessFile, tail: Buffer, tailStart: number): ReadAt {
  return async (position, length) =>
    position >= tailStart && position + length <= tailStart + tail.length ? tail.subarray(position - tailStart, position - tailStart + length) : readRange(file, position, length);
}

function findEnd(tail: Buffer): number {
  for (let i = tail.length - END_BYTES; i >= Math.max(0, tail.length - END_BYTES - MAX_COMMENT); i -= 1) {
    if (tail.readUInt32LE(i) === END_SIGNATURE && i + END_BYTES + tail.readUInt16LE(i + 20) === tail.length) return i;
  }
  throw new NotAZipError('Not a zip file: no end-of-central-directory record');
}

/** Where the directory is, from the end record (and its ZIP64 record when there is one). */
async function findZipDirectory(file: RandomAccessFile, readAt: ReadAt, tail: Buffer, tailStart: number): Promise<ZipDirectoryPlace & { comment: Buffer }> {
  const endAt = findEnd(tail);
  const end = tail.subarray(endAt);
  const at = tailStart + endAt;
  if (end.readUInt16LE(4) !== 0 || end.readUInt16LE(6) !== 0) throw new NotAZipError('Multi-disk zips are not supported');
  const comment = end.subarray(END_BYTES);
  let place: ZipDirectoryPlace = { entries: end.readUInt16LE(10), size: end.readUInt32LE(12), offset: end.readUInt32LE(16) };
  let directoryEnd = at;
  const locator = at >= ZIP64_LOCATOR_BYTES ? await readAt(at - ZIP64_LOCATOR_BYTES, ZIP64_LOCATOR_BYTES) : null;
  if (locator && locator.readUInt32LE(0) === ZIP64_LOCATOR_SIGNATURE) {
    const recordAt = safeNumber(locator.readBigUInt64LE(8), 'ZIP64 end record offset');
    if (recordAt + ZIP64_END_BYTES > file.size) throw new NotAZipError('The zip names a ZIP64 end record that is not there');
    const record = await readAt(recordAt, ZIP64_END_BYTES);
    if (record.readUInt32LE(0) !== ZIP64_END_SIGNATURE) throw new NotAZipError('The zip names a ZIP64 end record that is not there');
    if (record.readUInt32LE(16) !== 0 || record.readUInt32LE(20) !== 0) throw new NotAZipError('Multi-disk zips are not supported');
    place = {
      entries: safeNumber(record.readBigUInt64LE(32), 'entry count'),
      size: safeNumber(record.readBigUInt64LE(40), 'directory size'),
      offset: safeNumber(record.readBigUInt64LE(48), 'directory offset'),
    };
    directoryEnd = recordAt;
  }
  // A zip with bytes before it whose offsets ignore them (some self-extractors) is refused
  // rather than guessed at: its entries would be copied to the wrong places.
  if (place.offset + place.size !== directoryEnd) throw new NotAZipError('The zip directory is not where its end record says');
  return { ...place, comment };
}

/** The ZIP64 field of a central record: the values whose 32-bit field is all ones, in order. */
function applyZip64(entry: ZipEntry, extra: Buffer, start: number, length: number): void {
  let at = start;
  const take = (): number => {
    if (at + 8 > start + length) throw new NotAZipError(`Entry ${entry.name} has a short ZIP64 field`);
    const value = safeNumber(extra.readBigUInt64LE(at), 'entry size');
    at += 8;
    return value;
  };
  if (entry.uncompressedSize === 0xffffffff) (entry.uncompressedSize = take()), (entry.zip64.uncompressed = true);
  if (entry.compressedSize === 0xffffffff) (entry.compressedSize = take()), (entry.zip64.compressed = true);
  if (entry.localOffset === 0xffffffff) (entry.localOffset = take()), (entry.zip64.offset = true);
}

/** The extra fields of a record split: the ZIP64 one applied, the others kept as they were. */
function readExtra(entry: ZipEntry, extra: Buffer): Buffer {
  if (extra.length === 0) return extra;
  const kept: Buffer[] = [];
  let at = 0;
  while (at + 4 <= extra.length) {
    const id = extra.readUInt16LE(at);
    const length = extra.readUInt16LE(at + 2);
    if (at + 4 + length > extra.length) break; // a malformed tail is kept as it was
    if (id === ZIP64_EXTRA_ID) applyZip64(entry, extra, at + 4, length);
    else kept.push(extra.subarray(at, at + 4 + length));
    at += 4 + length;
  }
  if (at < extra.length) kept.push(extra.subarray(at));
  return kept.length === 1 ? kept[0]! : Buffer.concat(kept);
}

/** Records are read from one buffer of the whole directory; entries keep views into it. */
function parseRecords(bytes: Buffer, place: ZipDirectoryPlace): ZipEntry[] {
  const list: ZipEntry[] = [];
  let at = 0;
  for (let n = 0; n < place.entries; n += 1) {
    if (at + CENTRAL_BYTES > bytes.length || bytes.readUInt32LE(at) !== CENTRAL_SIGNATURE) throw new NotAZipError('The zip directory is damaged');
    const nameLength = bytes.readUInt16LE(at + 28);
    const extraLength = bytes.readUInt16LE(at + 30);
    const commentLength = bytes.readUInt16LE(at + 32);
    const nameAt = at + CENTRAL_BYTES;
    const next = nameAt + nameLength + extraLength + commentLength;
    if (next > bytes.length) throw new NotAZipError('The zip directory is damaged');
    const rawName = bytes.subarray(nameAt, nameAt + nameLength);
    const entry: ZipEntry = {
      name: rawName.toString('utf8'),
      rawName,
      versionMadeBy: bytes.readUInt16LE(at + 4),
      versionNeeded: bytes.readUInt16LE(at + 6),
      flags: bytes.readUInt16LE(at + 8),
      method: bytes.readUInt16LE(at + 10),
      time: bytes.readUInt16LE(at + 12),
      date: bytes.readUInt16LE(at + 14),
      crc32: bytes.readUInt32LE(at + 16),
      compressedSize: bytes.readUInt32LE(at + 20),
      uncompressedSize: bytes.readUInt32LE(at + 24),
      internalAttributes: bytes.readUInt16LE(at + 36),
      externalAttributes: bytes.readUInt32LE(at + 38),
      localOffset: bytes.readUInt32LE(at + 42),
      extra: Buffer.alloc(0),
      comment: bytes.subarray(next - commentLength, next),
      zip64: { uncompressed: false, compressed: false, offset: false },
      spanEnd: 0,
    };
    entry.extra = readExtra(entry, bytes.subarray(nameAt + nameLength, nameAt + nameLength + extraLength));
    list.push(entry);
    at = next;
  }
  if (at !== bytes.length) throw new NotAZipError('The zip directory does not hold the entries its end record counts');
  return list;
}

/** Entries in file order, each ending where the next begins; overlapping entries are refused. */
function inFileOrder(list: ZipEntry[], directoryOffset: number): ZipEntry[] {
  const ordered = [...list].sort((a, b) => a.localOffset - b.localOffset);
  for (let i = 0; i < ordered.length; i += 1) {
    const entry = ordered[i]!;
    entry.spanEnd = ordered[i + 1]?.localOffset ?? directoryOffset;
    if (entry.localOffset + LOCAL_BYTES + entry.compressedSize > entry.spanEnd) throw new NotAZipError(`Entry ${entry.name} overlaps the next one`);
  }
  return ordered;
}

/** The whole directory: one read of the file's last 64 KiB, and one more when the directory
 *  starts before them. */
export async function readZipDirectory(file: RandomAccessFile): Promise<ZipDirectory> {
  const tailStart = Math.max(0, file.size - TAIL_BYTES);
  const tail = await readRange(file, tailStart, file.size - tailStart);
  const readAt = tailReader(file, tail, tailStart);
  const place = await findZipDirectory(file, readAt, tail, tailStart);
  const bytes = await readAt(place.offset, place.size);
  return { ...place, list: inFileOrder(parseRecords(bytes, place), place.offset) };
}
