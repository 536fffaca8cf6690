// Updates: checkForUpdate() asks POST /releases/latest with a fresh nonce and trusts only the
// signed answer (typ release-check); downloadUpdate() fetches the checked version from
// POST /releases/download into a temporary file beside the target, hashing while it streams,
// and renames it into place only when the bytes are the checked release's.
//
// What is checked against what (docs/client-integration.md "Updates"):
// - the bytes received hash to X-Release-Sha256 (the sha256 of the bytes sent; not signed);
// - X-Release-Version is the version the signed check named;
// - the bytes are the release's own file (sha256 = the signed latest.sha256), or, for a jar the
//   service stamped for this download (its sha256 differs per download), the jar carries
//   META-INF/LICENSING-DOWNLOAD.jws signed by a pinned key (typ download) naming this license,
//   the download and the signed latest.sha256 as the release's file.
import { createHash, randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, rename, rm } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import type { PinnedKeys } from './jws.js';
import { retryAfter, serviceUrl } from './release.js';
import { reasonCode } from './terms.js';
import { readZipEntry } from './zip-entry.js';

export type ReleaseChannel = 'stable' | 'beta' | 'alpha';

export interface UpdateRequest {
  licenseId: string;
  productId: string;
  /** This machine's id, as in validate (omitted: the empty id, as the service reads it). */
  hwid?: string;
  /** The version this copy runs: answered as `current`, and no `update` when it is the newest. */
  version?: string;
  /** Omitted: stable. */
  channel?: ReleaseChannel;
}

/** The newest release the license may have, as the service signed it. */
export interface LatestRelease {
  version: string;
  /** Lowercase hex SHA-256 of the release's own file (a stamped jar's bytes differ; see downloadUpdate). */
  sha256: string;
  size: number;
  publishedAtEpochMillis: number;
}

export type UpdateFailure = 'REJECTED' | 'UNVERIFIED' | 'UNREACHABLE' | 'RATE_LIMITED';

export type UpdateCheck =
  | {
      valid: true;
      /** Signed: null when the license may have no release of the channel. */
      latest: LatestRelease | null;
      /** The named version's status (published, deprecated, archived); the service does not sign it. */
      current: { status: string } | null;
      /** `latest` exists and is not the version named in the request. */
      update: boolean;
      /** What was asked, so downloadUpdate fetches exactly this version. */
      request: UpdateRequest;
    }
  | {
      valid: false;
      latest: null;
      current: null;
      update: false;
      /** REJECTED: a genuine answer said the license is not valid; UNVERIFIED: no genuine answer for this request. */
      reason: UpdateFailure;
      retryAfterSeconds?: number;
    };

export type DownloadFailure = UpdateFailure | 'NO_RELEASE' | 'NOT_FOUND';

export type UpdateDownload =
  | {
      status: 'DOWNLOADED';
      version: string;
      /** The file written (absolute). */
      path: string;
      /** SHA-256 of the bytes written. */
      sha256: string;
      size: number;
      /** The signed sha256 of the release's own file (equal to sha256 unless the jar was stamped). */
      releaseSha256: string;
      /** A jar the service stamped for this download (its signed download entry checked). */
      stamped: boolean;
      downloadId: string | null;
    }
  | {
      status: 'INVALID';
      /**
       * REJECTED: the service refused (403; serverReason where the vendor reveals reasons, e.g.
       * RELEASE_NOT_ALLOWED); NO_RELEASE: the check found none this license may have;
       * NOT_FOUND: the checked version is gone (archived since); UNVERIFIED: the bytes are not
       * the checked release's (nothing is written).
       */
      reason: DownloadFailure;
      serverReason?: string;
      retryAfterSeconds?: number;
    };

export interface UpdateContext {
  url: string;
  keys: PinnedKeys;
  /** Per request; for a download, the longest wait for the next bytes. */
  timeoutMs: number;
}

export const DOWNLOAD_ENTRY = 'META-INF/LICENSING-DOWNLOAD.jws';
const SHA256 = /^[0-9a-f]{64}$/;
const MAX_ENTRY_BYTES = 64 * 1024;

const refused = (reason: UpdateFailure, retryAfterSeconds?: number): UpdateCheck => ({
  valid: false,
  latest: null,
  current: null,
  update: false,
  reason,
  ...(retryAfterSeconds === undefined ? {} : { retryAfterSeconds }),
});

const isObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);

/** The signed `latest` when it has the service's shape; undefined when it does not (null is an answer). */
function readLatest(value: unknown): LatestRelease | null | undefined {
  if (value === null) return null;
  if (!isObject(value)) return undefined;
  const { version, sha256, size, publishedAtEpochMillis } = value;
  if (typeof version !== 'string' || typeof sha256 !== 'string' || !SHA256.test(sha256)) return undefined;
  if (!Number.isSafeInteger(size) || !Number.isSafeInteger(publishedAtEpochMillis)) return undefined;
  return { version, sha256, size: size as number, publishedAtEpochMillis: publishedAtEpochMillis as number };
}

export async function checkForUpdate(ctx: UpdateContext, request: UpdateRequest): Promise<UpdateCheck> {
  const nonce = randomBytes(32).toString('base64url');
  const { licenseId, productId, hwid, version, channel } = request;
  let response: Response;
  try {
    response = await fetch(serviceUrl(ctx.url, '/releases/latest'), {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json', 'receipt-key-ids': ctx.keys.kids.join(', ') },
      body: JSON.stringify({ licenseId, productId, hwid, version, channel, nonce }),
      signal: AbortSignal.timeout(ctx.timeoutMs),
      redirect: 'manual', // an answer must come from the configured service
    });
  } catch {
    return refused('UNREACHABLE');
  }
  if (response.status >= 500) {
    await response.body?.cancel();
    return refused('UNREACHABLE');
  }
  if (response.status === 429) {
    await response.body?.cancel();
    return refused('RATE_LIMITED', retryAfter(response));
  }
  const body = (await response.json().catch(() => null)) as Record<string, unknown> | null;
  const jws = response.headers.get('validation-receipt');
  const signed = jws ? ctx.keys.verify(jws, 'release-check') : null;
  // The signed answer must repeat this request (a replayed or another machine's answer does not).
  if (!signed || response.status !== 200 || !isObject(body)) return refused('UNVERIFIED');
  if (signed.licenseId !== licenseId || signed.productId !== productId || signed.hwid !== (hwid ?? null) || signed.nonce !== nonce) return refused('UNVERIFIED');
  if (typeof signed.valid !== 'boolean' || typeof signed.timestampEpochMillis !== 'number' || body.valid !== signed.valid) return refused('UNVERIFIED');
  const latest = readLatest(signed.latest);
  if (latest === undefined) return refused('UNVERIFIED');
  if (!signed.valid) return refused('REJECTED');
  const current = isObject(body.current) && typeof body.current.status === 'string' ? { status: body.current.status } : null;
  return { valid: true, latest, current, update: latest !== null && latest.version !== version, request: { ...request } };
}

/** The temporary file beside `target`: renamed over it only when complete and checked. */
const tempBeside = (target: string) => join(dirname(target), `.${basename(target)}.${process.pid}.${randomBytes(6).toString('hex')}.part`);

export async function downloadUpdate(ctx: UpdateContext, check: UpdateCheck, path: string): Promise<UpdateDownload> {
  if (!check.valid) return check.retryAfterSeconds === undefined ? { status: 'INVALID', reason: check.reason } : { status: 'INVALID', reason: check.reason, retryAfterSeconds: check.retryAfterSeconds };
  const latest = check.latest;
  if (!latest) return { status: 'INVALID', reason: 'NO_RELEASE' };
  const { licenseId, productId, hwid, channel } = check.request;
  const target = resolve(path);
  // A download may take long: the timeout is the longest wait for the answer or its next bytes.
  const abort = new AbortController();
  let idle = setTimeout(() => abort.abort(), ctx.timeoutMs);
  const stillAlive = () => {
    clearTimeout(idle);
    idle = setTimeout(() => abort.abort(), ctx.timeoutMs);
  };
  const temp = tempBeside(target);
  try {
    let response: Response;
    try {
      response = await fetch(serviceUrl(ctx.url, '/releases/download'), {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/java-archive, application/octet-stream, application/json' },
        body: JSON.stringify({ licenseId, productId, hwid, version: latest.version, channel }),
        signal: abort.signal,
        redirect: 'manual',
      });
    } catch {
      return { status: 'INVALID', reason: 'UNREACHABLE' };
    }
    if (response.status !== 200) return await failedDownload(response);
    const sentSha256 = response.headers.get('x-release-sha256') ?? '';
    if (response.headers.get('x-release-version') !== latest.version || !SHA256.test(sentSha256) || !response.body) {
      await response.body?.cancel();
      return { status: 'INVALID', reason: 'UNVERIFIED' };
    }

    await mkdir(dirname(target), { recursive: true });
    const hash = createHash('sha256');
    let size = 0;
    const measure = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        stillAlive();
        hash.update(chunk);
        size += chunk.length;
        done(null, chunk);
      },
    });
    const source = Readable.fromWeb(response.body as WebReadableStream<Uint8Array>);
    let cut = false;
    source.once('error', () => (cut = true));
    try {
      // flush: on disk before the rename
      await pipeline(source, measure, createWriteStream(temp, { flags: 'wx', flush: true }));
    } catch (err) {
      if (cut || abort.signal.aborted) return { status: 'INVALID', reason: 'UNREACHABLE' }; // cut off or stalled
      throw err; // the disk's problem, not the service's: the caller hears it
    }
    const sha256 = hash.digest('hex');
    if (sha256 !== sentSha256) return { status: 'INVALID', reason: 'UNVERIFIED' };
    const downloadId = response.headers.get('x-download-id');
    const stamped = sha256 !== latest.sha256;
    if (stamped && !(await stampedForThis(ctx.keys, temp, licenseId, latest.sha256, downloadId))) return { status: 'INVALID', reason: 'UNVERIFIED' };
    await rename(temp, target);
    return { status: 'DOWNLOADED', version: latest.version, path: target, sha256, size, releaseSha256: latest.sha256, stamped, downloadId };
  } finally {
    clearTimeout(idle);
    await rm(temp, { force: true }).catch(() => undefined); // gone already after the rename
  }
}

/** A jar stamped for this download: its signed entry names this license, the download and the checked release's file. */
async function stampedForThis(keys: PinnedKeys, file: string, licenseId: string, releaseSha256: string, downloadId: string | null): Promise<boolean> {
  const entry = await readZipEntry(file, DOWNLOAD_ENTRY, MAX_ENTRY_BYTES);
  const payload = entry ? keys.verify(entry.toString('utf8'), 'download') : null;
  if (!payload || payload.licenseId !== licenseId || payload.sha256 !== releaseSha256 || typeof payload.downloadId !== 'string') return false;
  return downloadId === null || payload.downloadId === downloadId;
}

/** A refusal (403: the validation body), a vanished release (404), a rate limit or an outage. */
async function failedDownload(response: Response): Promise<UpdateDownload> {
  const body = (await response.json().catch(() => null)) as Record<string, unknown> | null;
  if (response.status === 403) {
    const serverReason = reasonCode(body?.reason);
    return serverReason === null ? { status: 'INVALID', reason: 'REJECTED' } : { status: 'INVALID', reason: 'REJECTED', serverReason };
  }
  if (response.status === 404) return { status: 'INVALID', reason: 'NOT_FOUND' };
  if (response.status === 429) return { status: 'INVALID', reason: 'RATE_LIMITED', retryAfterSeconds: retryAfter(response) };
  if (response.status >= 500) return { status: 'INVALID', reason: 'UNREACHABLE' };
  return { status: 'INVALID', reason: 'UNVERIFIED' }; // a redirect or another answer the service does not give
}

/** The line `update check` prints: UPDATE <version> <sha256>, UP_TO_DATE [<version>], or INVALID <why>. */
export function describeCheck(check: UpdateCheck): string {
  if (!check.valid) return `INVALID ${check.reason}`;
  if (check.update) return `UPDATE ${check.latest!.version} ${check.latest!.sha256}`;
  return check.latest ? `UP_TO_DATE ${check.latest.version}` : 'UP_TO_DATE';
}

/** The line `update download` prints: DOWNLOADED <version> <path>, or INVALID <why> [<the service's reason>]. */
export function describeDownload(result: UpdateDownload): string {
  if (result.status === 'DOWNLOADED') return `DOWNLOADED ${result.version} ${result.path}`;
  return result.serverReason === undefined ? `INVALID ${result.reason}` : `INVALID ${result.reason} ${result.serverReason}`;
}
