// One forward pass over the entries a caller wants, each inflated and checked: how indexing
// and tracing read a jar without holding it (READ_CHUNK_BYTES at a time, each byte once).
import { ForwardReader, type RandomAccessFile } from './random-access.js';
import type { ZipDirectory, ZipEntry } from './zip-directory.js';
import { contentOf, isReadable, readLocalRecord } from './zip-entry-data.js';

/**
 * Calls `visit` with the content of each entry for which `limit` gives a size it may have;
 * entries it cannot read (encrypted, another method) or larger than their limit are passed by.
 */
export async function scanEntries(
  file: RandomAccessFile,
  dir: ZipDirectory,
  limit: (entry: ZipEntry) => number | null,
  visit: (entry: ZipEntry, content: Buffer) => void,
): Promise<void> {
  const reader = new ForwardReader(file, dir.offset);
  for (const entry of dir.list) {
    const max = limit(entry);
    if (max === null || !isReadable(entry) || entry.uncompressedSize > max) continue;
    const record = await readLocalRecord(reader, entry);
    visit(entry, contentOf(entry, record.compressed));
  }
}
