// The queries of the version cache (version-support.ts): the releases' versions and
// statuses, the products that refuse unsupported versions, and the counter every release
// change bumps (written by the releases module in the change's transaction).
import type { Db } from '../../db/database.js';

/** Every version a license may name: the releases that are not drafts (drafts are absent to licenses). */
export const namedVersions = (db: Db) =>
  db.selectFrom('releases').select(['product_id', 'version', 'status']).where('status', '!=', 'draft').execute();

/** The products whose refuseUnsupportedVersions is on. */
export async function refusingProducts(db: Db): Promise<string[]> {
  const rows = await db.selectFrom('products').select('id').where('refuse_unsupported_versions', '=', 1).orderBy('id').execute();
  return rows.map((r) => r.id);
}

export async function readReleasesVersion(db: Db): Promise<number> {
  const row = await db.selectFrom('release_versions_version').select('version').where('id', '=', 1).executeTakeFirst();
  return row?.version ?? 0;
}
