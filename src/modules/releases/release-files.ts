// Release files in the database, in CHUNK_SIZE chunks: written from the request's stream
// as it arrives (into one reused buffer, its sha256 computed on the way), read back
// chunk by chunk (each a Buffer the reader owns and frees) or as a random-access file (what
// the jar library reads). Constant memory whatever the file's size, and every instance reads
// what any instance wrote.
import { createHash } from 'node:crypto';
import type { Db } from '../../db/database.js';
import type { ReleaseFilesTable } from '../../db/schema.js';
import { HttpError } from '../../http/errors.js';
import { newId } from '../../lib/ids.js';
import { clock } from '../../lib/clock.js';
import type { RandomAccessFile } from '../../lib/jars/index.js';
import * as repo from './release-files.repository.js';

/**
 * Small, for PostgreSQL: a chunk arrives as hex text in one DataRow message, and node-postgres
 * gathers a message longer than one socket read (64 KiB) into buffers it doubles, garbage
 * several times the chunk. 16 KiB (32 KiB of hex) arrives in one read; with 32 KiB chunks 10
 * parallel downloads grew RSS by 115-175 MB, with 16 KiB by 10-18 MB (docs/decisions.md
 * "Releases"). A round trip per 16 KiB cost no more than one per MiB (30 MB read in 0.55 s).
 */
export const CHUNK_SIZE = 16 * 1024;
/** Chunks written per statement by an upload: one statement (one commit) per MiB. */
const CHUNKS_PER_INSERT = 64;

export const tooLarge = (maxBytes: number) => new HttpError(413, `File is larger than RELEASE_MAX_BYTES (${maxBytes} bytes)`);

/** A file written and complete, not yet attached to a release. */
export interface WrittenFile {
  id: string;
  name: string;
  size: number;
  sha256: string;
  chunkSize: number;
}

/**
 * Writes `body` as a new file, chunk by chunk; past `maxBytes` it stops with a 413 naming
 * RELEASE_MAX_BYTES. A file that fails half-way is removed.
 */
export async function writeFile(db: Db, name: string, body: AsyncIterable<Buffer | string>, maxBytes: number): Promise<WrittenFile> {
  const id = newId();
  await repo.insertFile(db, { id, name, size: 0, sha256: '', chunk_size: CHUNK_SIZE, main_class: null, jar_index: null, completed_at: null, created_at: clock.now() });
  const hash = createHash('sha256');
  let size = 0;
  let index = 0;
  // One buffer of CHUNKS_PER_INSERT chunks for the whole upload, reused once the driver has
  // taken its bytes (the insert resolved): the upload makes no garbage of its own.
  const batch = Buffer.allocUnsafeSlow(CHUNK_SIZE * CHUNKS_PER_INSERT);
  let filled = 0;
  const flush = async () => {
    const chunks: Buffer[] = [];
    for (let at = 0; at < filled; at += CHUNK_SIZE) chunks.push(batch.subarray(at, Math.min(filled, at + CHUNK_SIZE)));
    await repo.insertChunks(db, id, index, chunks);
    index += chunks.length;
    filled = 0;
  };
  try {
    for await (const piece of body) {
      const bytes = typeof piece === 'string' ? Buffer.from(piece) : piece;
      size += bytes.length;
      if (size > maxBytes) throw tooLarge(maxBytes);
      hash.update(bytes);
      for (let at = 0; at < bytes.length; ) {
        const copied = bytes.copy(batch, filled, at);
        filled += copied;
        at += copied;
        if (filled === batch.length) await flush();
      }
    }
    if (filled > 0) await flush();
  } catch (err) {
    await repo.deleteFiles(db, [id]).catch(() => undefined);
    throw err;
  }
  return { id, name, size, sha256: hash.digest('hex'), chunkSize: CHUNK_SIZE };
}

/** Marks a written file complete, with what the jar library read of it. */
export const completeFile = (db: Db, file: WrittenFile, jar: { mainClass: string | null; index: unknown } | null) =>
  repo.completeFile(db, file.id, {
    size: file.size,
    sha256: file.sha256,
    main_class: jar?.mainClass ?? null,
    jar_index: jar ? JSON.stringify(jar.index) : null,
    completed_at: clock.now(),
  });

export const deleteFiles = (db: Db, ids: readonly string[]) => repo.deleteFiles(db, ids);

type StoredFile = Pick<ReleaseFilesTable, 'id' | 'size' | 'chunk_size'>;

/** Chunks read by one query of a download: 256 KiB, each row small enough for one socket read of PostgreSQL's. */
const CHUNKS_PER_READ = 16;

/** Reads chunks `first` to `last`, or fails: a file's chunks are all there until it is deleted. */
async function chunks(db: Db, file: StoredFile, first: number, last: number): Promise<Buffer[]> {
  const data = first === last ? [await repo.readChunk(db, file.id, first)].filter((d) => d !== undefined) : await repo.readChunks(db, file.id, first, last - first + 1);
  if (data.length !== last - first + 1) throw new Error(`release file ${file.id}: chunks ${first}-${last} are missing (deleted meanwhile?)`);
  return data;
}

/**
 * The file as random access (what the jar library reads): a read spanning several chunks
 * fetches them in one query; the two chunks read last are kept, so small reads that walk
 * through the file fetch each chunk once.
 */
export function randomAccess(db: Db, file: StoredFile): RandomAccessFile {
  const cache = new Map<number, Buffer>();
  const remember = (index: number, data: Buffer) => {
    cache.delete(index);
    cache.set(index, data);
    if (cache.size > 2) cache.delete(cache.keys().next().value!);
  };
  return {
    size: file.size,
    async read(position, length) {
      const end = Math.min(file.size, position + length);
      if (position >= end) return Buffer.alloc(0);
      const first = Math.floor(position / file.chunk_size);
      const last = Math.floor((end - 1) / file.chunk_size);
      const cached = first === last ? cache.get(first) : undefined;
      const data = cached ? [cached] : await chunks(db, file, first, last);
      data.slice(-2).forEach((d, i) => remember(last - Math.min(data.length, 2) + 1 + i, d));
      const parts = data.map((d, i) => {
        const start = (first + i) * file.chunk_size;
        return d.subarray(Math.max(position, start) - start, Math.min(end, start + d.length) - start);
      });
      return parts.length === 1 ? parts[0]! : Buffer.concat(parts);
    },
  };
}

/**
 * The file's bytes in order, CHUNKS_PER_READ chunks per database read, read only when the
 * consumer has taken the previous ones: each Buffer is the consumer's own (sendSlices frees
 * it once it is sent).
 */
export async function* fileChunks(db: Db, file: StoredFile): AsyncGenerator<Buffer> {
  const count = Math.ceil(file.size / file.chunk_size);
  for (let first = 0; first < count; first += CHUNKS_PER_READ) {
    yield* await chunks(db, file, first, Math.min(count, first + CHUNKS_PER_READ) - 1);
  }
}
