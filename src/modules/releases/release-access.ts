// Which release a license may have (docs/releases.md): published or deprecated releases
// published no later than the end of its window (updatesUntilEpochMillis, else its expiry or
// the end of its grace, none for a perpetual license). Drafts and archived releases are
// absent to licenses.
import type { Db } from '../../db/database.js';
import { notFound } from '../../http/errors.js';
import { releaseWindowEnd } from '../license-settings/license-settings.js';
import * as repo from './releases.repository.js';

export const NO_SUCH_RELEASE = 'Release not found';
export const NO_PUBLISHED_RELEASE = 'No published release in this channel';

type LicenseWindow = Parameters<typeof releaseWindowEnd>[0];

const DELIVERED = new Set(['published', 'deprecated']);

/** Whether the license may have a release that licenses can see. */
export const mayHave = (release: Pick<repo.ReleaseRow, 'status' | 'published_at'>, windowEnd: number | null): boolean =>
  DELIVERED.has(release.status) && release.published_at !== null && (windowEnd === null || release.published_at <= windowEnd);

/** The release a request names (404 when absent, a draft or archived), or null when the license may not have it. */
export async function namedRelease(db: Db, license: LicenseWindow, productId: string, channel: string, version: string): Promise<repo.ReleaseRow | null> {
  const release = await repo.findByVersion(db, productId, channel, version);
  if (!release || !DELIVERED.has(release.status)) throw notFound(NO_SUCH_RELEASE);
  return mayHave(release, releaseWindowEnd(license)) ? release : null;
}

/** The newest published release of the channel the license may have; 404 without any published one, null when none is the license's. */
export async function newestAllowed(db: Db, license: LicenseWindow, productId: string, channel: string): Promise<repo.ReleaseRow | null> {
  const { newest, anyPublished } = await repo.newestPublished(db, productId, channel, releaseWindowEnd(license));
  if (!anyPublished) throw notFound(NO_PUBLISHED_RELEASE);
  return newest ?? null;
}
