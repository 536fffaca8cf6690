// Tracing a leaked jar to its download: by its signed META-INF/LICENSING-DOWNLOAD.jws
// (verified against every published signing key), or, when that entry was stripped, by a
// value stamped into its class files (the download id or the download's random nonce).
import { open } from 'node:fs/promises';
import type { Db } from '../../db/database.js';
import { badRequest, notFound } from '../../http/errors.js';
import { NotAZipError, readStamps, type RandomAccessFile } from '../../lib/jars/index.js';
import { verifyCompact } from '../signing/jws.js';
import type { PublicJwk } from '../signing/key-material.js';
import { DOWNLOAD_ENTRY } from './release-delivery.js';
import * as repo from './releases.repository.js';
import type { TraceResult } from './releases.schemas.js';

export const NOT_STAMPED = 'Not a stamped download';

/** A download id (UUID) or a stamped nonce (16 bytes, base64url): the constants worth looking up. */
const STAMP_SHAPE = /^(?:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|[A-Za-z0-9_-]{22})$/;
/** Constants looked up at most: a jar stamped by this service holds two such values per stamped class. */
const MAX_LOOKED_UP = 10_000;

/** A file on disk as random access (the uploaded jar, spooled). */
export async function diskFile(path: string): Promise<{ file: RandomAccessFile; close(): Promise<void> }> {
  const handle = await open(path, 'r');
  const { size } = await handle.stat();
  return {
    file: {
      size,
      async read(position, length) {
        const buffer = Buffer.alloc(Math.max(0, Math.min(length, size - position)));
        const { bytesRead } = await handle.read(buffer, 0, buffer.length, position);
        return buffer.subarray(0, bytesRead);
      },
    },
    close: () => handle.close(),
  };
}

export async function trace(db: Db, jar: RandomAccessFile, keys: readonly PublicJwk[]): Promise<TraceResult> {
  let stamps: Awaited<ReturnType<typeof readStamps>>;
  try {
    stamps = await readStamps(jar, [DOWNLOAD_ENTRY], (s) => STAMP_SHAPE.test(s));
  } catch (err) {
    if (err instanceof NotAZipError) throw badRequest('The body is not a readable jar (zip)');
    throw err;
  }
  const entry = stamps.entries[DOWNLOAD_ENTRY];
  const signed = entry ? verifyCompact(entry.toString('utf8'), 'download', keys) : null;
  if (signed && typeof signed.downloadId === 'string') {
    const found = await repo.downloadById(db, signed.downloadId);
    if (found) return answer(db, found, 'entry');
  }
  const found = await repo.downloadByStamp(db, [...new Set(stamps.constants)].slice(0, MAX_LOOKED_UP));
  if (found) return answer(db, found, 'constant');
  throw notFound(NOT_STAMPED);
}

type DownloadRow = NonNullable<Awaited<ReturnType<typeof repo.downloadById>>>;

async function answer(db: Db, row: DownloadRow, foundBy: TraceResult['foundBy']): Promise<TraceResult> {
  const release = await repo.findRelease(db, row.release_id);
  if (!release) throw notFound(NOT_STAMPED); // its release was deleted with its downloads meanwhile
  return {
    foundBy,
    download: toDownload(row),
    customerId: row.customer_id,
    release: { id: release.id, productId: release.product_id, version: release.version, channel: release.channel },
  };
}

export const toDownload = (row: DownloadRow) => ({
  id: row.id,
  licenseId: row.license_id,
  ip: row.ip,
  hwid: row.hwid,
  atEpochMillis: row.at,
  sha256: row.sha256,
});
