// Writing the records of a zip: a local header for an entry the stamper makes, a central
// record for every entry, and the end records (ZIP64 ones where counts or offsets need them).
import { ZIP64_EXTRA_ID, type ZipEntry } from './zip-directory.js';

const ALL_ONES_32 = 0xffffffff;
const ALL_ONES_16 = 0xffff;
const ZIP64_VERSION = 45;
/** Flag bit 3: sizes and CRC follow the data. Entries this library writes never use it. */
export const DATA_DESCRIPTOR_FLAG = 0x0008;
/** Flag bit 11: the name is UTF-8. */
export const UTF8_FLAG = 0x0800;

const needs64 = (value: number): boolean => value >= ALL_ONES_32;

/** A local header (no data descriptor follows: CRC and sizes are known). */
export function localHeader(entry: ZipEntry, localExtra: Buffer): Buffer {
  if (needs64(entry.compressedSize) || needs64(entry.uncompressedSize)) throw new RangeError(`Entry ${entry.name} is too large to rewrite`);
  const header = Buffer.alloc(30);
  header.writeUInt32LE(0x04034b50, 0);
  header.writeUInt16LE(entry.versionNeeded, 4);
  header.writeUInt16LE(entry.flags & ~DATA_DESCRIPTOR_FLAG, 6);
  header.writeUInt16LE(entry.method, 8);
  header.writeUInt16LE(entry.time, 10);
  header.writeUInt16LE(entry.date, 12);
  header.writeUInt32LE(entry.crc32, 14);
  header.writeUInt32LE(entry.compressedSize, 18);
  header.writeUInt32LE(entry.uncompressedSize, 22);
  header.writeUInt16LE(entry.rawName.length, 26);
  header.writeUInt16LE(localExtra.length, 28);
  return Buffer.concat([header, entry.rawName, localExtra]);
}

/** Extra fields without a ZIP64 one (a rewritten entry's sizes are written plainly). */
export function withoutZip64(extra: Buffer): Buffer {
  const kept: Buffer[] = [];
  let at = 0;
  while (at + 4 <= extra.length) {
    const length = extra.readUInt16LE(at + 2);
    if (at + 4 + length > extra.length) break;
    if (extra.readUInt16LE(at) !== ZIP64_EXTRA_ID) kept.push(extra.subarray(at, at + 4 + length));
    at += 4 + length;
  }
  if (at < extra.length) kept.push(extra.subarray(at));
  return Buffer.concat(kept);
}

/** The central record of an entry at its (new) local offset. */
export function centralRecord(entry: ZipEntry): Buffer {
  const big = {
    uncompressed: entry.zip64.uncompressed || needs64(entry.uncompressedSize),
    compressed: entry.zip64.compressed || needs64(entry.compressedSize),
    offset: entry.zip64.offset || needs64(entry.localOffset),
  };
  const values = [big.uncompressed && entry.uncompressedSize, big.compressed && entry.compressedSize, big.offset && entry.localOffset].filter((v): v is number => v !== false);
  let zip64 = Buffer.alloc(0);
  if (values.length > 0) {
    zip64 = Buffer.alloc(4 + 8 * values.length);
    zip64.writeUInt16LE(ZIP64_EXTRA_ID, 0);
    zip64.writeUInt16LE(8 * values.length, 2);
    values.forEach((v, i) => zip64.writeBigUInt64LE(BigInt(v), 4 + 8 * i));
  }
  const extraLength = zip64.length + entry.extra.length;
  const record = Buffer.allocUnsafe(46 + entry.rawName.length + extraLength + entry.comment.length);
  record.writeUInt32LE(0x02014b50, 0);
  record.writeUInt16LE(entry.versionMadeBy, 4);
  record.writeUInt16LE(values.length > 0 ? Math.max(entry.versionNeeded, ZIP64_VERSION) : entry.versionNeeded, 6);
  record.writeUInt16LE(entry.flags, 8);
  record.writeUInt16LE(entry.method, 10);
  record.writeUInt16LE(entry.time, 12);
  record.writeUInt16LE(entry.date, 14);
  record.writeUInt32LE(entry.crc32, 16);
  record.writeUInt32LE(big.compressed ? ALL_ONES_32 : entry.compressedSize, 20);
  record.writeUInt32LE(big.uncompressed ? ALL_ONES_32 : entry.uncompressedSize, 24);
  record.writeUInt16LE(entry.rawName.length, 28);
  record.writeUInt16LE(extraLength, 30);
  record.writeUInt16LE(entry.comment.length, 32);
  record.writeUInt16LE(0, 34); // disk
  record.writeUInt16LE(entry.internalAttributes, 36);
  record.writeUInt32LE(entry.externalAttributes, 38);
  record.writeUInt32LE(big.offset ? ALL_ONES_32 : entry.localOffset, 42);
  let at = 46;
  for (const part of [entry.rawName, zip64, entry.extra, entry.comment]) at += part.copy(record, at);
  return record;
}

/** The end records for a directory of `entries` records, `size` bytes, starting at `offset`. */
export function endRecords(entries: number, size: number, offset: number, comment: Buffer): Buffer {
  const zip64 = entries >= ALL_ONES_16 || needs64(size) || needs64(offset);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(zip64 ? ALL_ONES_16 : entries, 8);
  end.writeUInt16LE(zip64 ? ALL_ONES_16 : entries, 10);
  end.writeUInt32LE(zip64 ? ALL_ONES_32 : size, 12);
  end.writeUInt32LE(zip64 ? ALL_ONES_32 : offset, 16);
  end.writeUInt16LE(comment.length, 20);
  if (!zip64) return Buffer.concat([end, comment]);
  const record = Buffer.alloc(56);
  record.writeUInt32LE(0x06064b50, 0);
  record.writeBigUInt64LE(44n, 4); // the record's size after this field
  record.writeUInt16LE(ZIP64_VERSION, 12);
  record.writeUInt16LE(ZIP64_VERSION, 14);
  record.writeBigUInt64LE(BigInt(entries), 24);
  record.writeBigUInt64LE(BigInt(entries), 32);
  record.writeBigUInt64LE(BigInt(size), 40);
  record.writeBigUInt64LE(BigInt(offset), 48);
  const locator = Buffer.alloc(20);
  locator.writeUInt32LE(0x07064b50, 0);
  locator.writeBigUInt64LE(BigInt(offset + size), 8);
  locator.writeUInt32LE(1, 16); // total disks
  return Buffer.concat([record, locator, end, comment]);
}
