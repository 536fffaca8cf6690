// The public side of releases. A download is first decided exactly as a validation
// (app.validation.check: blocklist, rule, bindings, recorded attempt); then the release the
// license may have is handed over as slices read from the database chunk by chunk (the route
// sends them with src/http/send-slices.ts, one in flight), a jar stamped for this download
// (src/lib/jars: the four placeholders and the signed META-INF/LICENSING-DOWNLOAD.jws), and
// the download recorded. An update check answers what is newer, binding nothing.
import { randomBytes } from 'node:crypto';
import type { Db } from '../../db/database.js';
import { clock } from '../../lib/clock.js';
import { newId } from '../../lib/ids.js';
import { stampJar, type Placeholder } from '../../lib/jars/index.js';
import { signCompact } from '../signing/jws.js';
import type { KeyRing } from '../signing/key-ring.js';
import type { ValidationGate } from '../validation/validation.plugin.js';
import { namedRelease, newestAllowed } from './release-access.js';
import { fileChunks, randomAccess } from './release-files.js';
import * as repo from './releases.repository.js';
import { RELEASE_NOT_ALLOWED, type DownloadBody, type LatestBody, type LatestRelease, type LatestResult, type ReleaseStatus } from './releases.schemas.js';
import { spool } from './stamped-file.js';

export const DOWNLOAD_ENTRY = 'META-INF/LICENSING-DOWNLOAD.jws';

export interface Delivery {
  db: Db;
  validation: ValidationGate;
  signingKeys: KeyRing;
}

/** The validation body of a refused download: the reason only where the license reveals reasons. */
export interface Refused {
  valid: false;
  reason?: string;
}

/** The file to send: each slice is a Buffer of its own, read when the previous one was sent. */
export type DownloadAnswer = { refused: Refused } | { headers: Record<string, string>; slices: AsyncGenerator<Buffer>; stamped: boolean };

const isJar = (name: string, jarIndex: string | null) => jarIndex !== null && name.toLowerCase().endsWith('.jar');

/** `attachment; filename="…"` with an ASCII stand-in and the exact UTF-8 name (RFC 6266). */
const disposition = (name: string) =>
  `attachment; filename="${name.replace(/[^\x20-\x7e]|["\\]/g, '_')}"; filename*=UTF-8''${encodeURIComponent(name)}`;

export async function download(d: Delivery, body: DownloadBody, ip: string): Promise<DownloadAnswer> {
  const { licenseId, productId } = body;
  const hwid = body.hwid ?? '';
  const checked = await d.validation.check({ licenseId, productId, hwid, ip });
  const reveal = checked.outcome?.revealReasons === true;
  if (!checked.valid) return { refused: reveal ? { valid: false, reason: checked.outcome!.reason } : { valid: false } };
  const license = await repo.licenseForRelease(d.db, licenseId);
  if (!license) return { refused: { valid: false } }; // deleted since it validated
  const channel = body.channel ?? 'stable';
  const release = body.version === undefined
    ? await newestAllowed(d.db, license, productId, channel)
    : await namedRelease(d.db, license, productId, channel, body.version);
  if (!release) return { refused: reveal ? { valid: false, reason: RELEASE_NOT_ALLOWED } : { valid: false } };
  const file = (await repo.fileOf(d.db, release.file_id!))!;
  const downloadId = newId();
  const at = clock.now();
  const headers: Record<string, string> = {
    'content-disposition': disposition(file.name),
    'x-release-version': release.version,
    'x-download-id': downloadId,
    'cache-control': 'no-store',
  };
  const record = (sha256: string, nonce: string | null) =>
    repo.insertDownload(d.db, { id: downloadId, release_id: release.id, license_id: licenseId, customer_id: license.customer_id, ip, hwid: body.hwid ?? null, at, sha256, nonce });

  if (!isJar(file.name, file.jar_index)) {
    await record(file.sha256, null);
    return {
      headers: { ...headers, 'content-type': 'application/octet-stream', 'content-length': String(file.size), 'x-release-sha256': file.sha256 },
      slices: fileChunks(d.db, file),
      stamped: false,
    };
  }

  const nonce = randomBytes(16).toString('base64url');
  const key = await d.signingKeys.current();
  const entry = signCompact(key, 'download', { downloadId, licenseId, releaseId: release.id, sha256: file.sha256, iatEpochMillis: at });
  d.signingKeys.signed(key);
  const values: Record<Placeholder, string> = {
    '%%__LICENSING_KEY__%%': licenseId,
    '%%__LICENSING_CUSTOMER__%%': license.customer_id,
    '%%__LICENSING_DOWNLOAD__%%': downloadId,
    '%%__LICENSING_NONCE__%%': nonce,
  };
  const stamped = await spool(stampJar(randomAccess(d.db, file), JSON.parse(file.jar_index!), values, [{ name: DOWNLOAD_ENTRY, data: Buffer.from(entry) }]));
  try {
    await record(stamped.sha256, nonce);
  } catch (err) {
    await stamped.discard();
    throw err;
  }
  return {
    headers: { ...headers, 'content-type': 'application/java-archive', 'content-length': String(stamped.size), 'x-release-sha256': stamped.sha256 },
    slices: stamped.slices(),
    stamped: true,
  };
}

const latestOf = (release: repo.ReleaseRow): LatestRelease => ({
  version: release.version,
  sha256: release.file_sha256!,
  size: release.file_size!,
  publishedAtEpochMillis: release.published_at!,
});

/** The update check's answer; nothing is bound or recorded. */
export async function latest(d: Delivery, body: LatestBody, ip: string): Promise<LatestResult> {
  const { licenseId, productId } = body;
  const peeked = await d.validation.peek({ licenseId, productId, hwid: body.hwid ?? '', ip });
  const license = peeked?.valid ? await repo.licenseForRelease(d.db, licenseId) : undefined;
  if (!license) return { valid: false, latest: null, current: null, update: false };
  const channel = body.channel ?? 'stable';
  // The newest the license may have: the channel's newest published within its window.
  const allowed = await newestWithin(d.db, license, productId, channel);
  const named = body.version === undefined ? undefined : await repo.findByVersion(d.db, productId, channel, body.version);
  const current = named && named.status !== 'draft' ? { status: named.status as ReleaseStatus } : null;
  return {
    valid: true,
    latest: allowed ? latestOf(allowed) : null,
    current,
    update: allowed !== null && allowed.version !== body.version,
  };
}

async function newestWithin(db: Db, license: Parameters<typeof newestAllowed>[1], productId: string, channel: string) {
  try {
    return await newestAllowed(db, license, productId, channel);
  } catch (err) {
    if ((err as { statusCode?: number }).statusCode === 404) return null; // none published: nothing newer
    throw err;
  }
}
