// Every query of releases and their downloads (files and chunks: release-files.repository.ts).
import { sql } from 'kysely';
import type { Db } from '../../db/database.js';
import type { ReleaseDownloadsTable, ReleaseFilesTable, ReleasesTable } from '../../db/schema.js';

/** A release with its file's facts (null columns without a file). */
export interface ReleaseRow extends ReleasesTable {
  file_name: string | null;
  file_size: number | null;
  file_sha256: string | null;
  file_main_class: string | null;
}

const withFile = (db: Db) =>
  db
    .selectFrom('releases as r')
    .leftJoin('release_files as f', 'f.id', 'r.file_id')
    .selectAll('r')
    .select(['f.name as file_name', 'f.size as file_size', 'f.sha256 as file_sha256', 'f.main_class as file_main_class']);

export const findRelease = (db: Db, id: string): Promise<ReleaseRow | undefined> =>
  withFile(db).where('r.id', '=', id).executeTakeFirst() as Promise<ReleaseRow | undefined>;

export const findByVersion = (db: Db, productId: string, channel: string, version: string): Promise<ReleaseRow | undefined> =>
  withFile(db).where('r.product_id', '=', productId).where('r.channel', '=', channel).where('r.version', '=', version).executeTakeFirst() as Promise<
    ReleaseRow | undefined
  >;

export interface ReleaseFilter {
  channel?: string;
  status?: string;
  limit?: number;
  offset?: number;
}

const matching = (db: Db, productId: string, filter: ReleaseFilter) => {
  let query = db.selectFrom('releases as r').where('r.product_id', '=', productId);
  if (filter.channel !== undefined) query = query.where('r.channel', '=', filter.channel);
  if (filter.status !== undefined) query = query.where('r.status', '=', filter.status);
  return query;
};

/** Newest first. */
export function listReleases(db: Db, productId: string, filter: ReleaseFilter): Promise<ReleaseRow[]> {
  let query = withFile(db).where('r.product_id', '=', productId);
  if (filter.channel !== undefined) query = query.where('r.channel', '=', filter.channel);
  if (filter.status !== undefined) query = query.where('r.status', '=', filter.status);
  query = query.orderBy('r.created_at', 'desc').orderBy('r.id', 'desc');
  if (filter.limit !== undefined) query = query.limit(filter.limit);
  if (filter.offset !== undefined) query = query.offset(filter.offset);
  return query.execute() as Promise<ReleaseRow[]>;
}

export async function countReleases(db: Db, productId: string, filter: ReleaseFilter): Promise<number> {
  const row = await matching(db, productId, filter).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  return row.n;
}

/**
 * The newest published release of the channel published no later than `until` (null: any),
 * and whether the channel has a published release at all.
 */
export async function newestPublished(db: Db, productId: string, channel: string, until: number | null) {
  const base = withFile(db).where('r.product_id', '=', productId).where('r.channel', '=', channel).where('r.status', '=', 'published');
  const allowed = until === null ? base : base.where('r.published_at', '<=', until);
  const newest = (await allowed.orderBy('r.published_at', 'desc').orderBy('r.id', 'desc').limit(1).executeTakeFirst()) as ReleaseRow | undefined;
  if (newest) return { newest, anyPublished: true };
  const any = await base.select('r.id as any_id').limit(1).executeTakeFirst();
  return { newest: undefined, anyPublished: any !== undefined };
}

export const insertRelease = (trx: Db, row: ReleasesTable) => trx.insertInto('releases').values(row).execute();

export async function updateRelease(trx: Db, id: string, values: Partial<Omit<ReleasesTable, 'id'>>): Promise<void> {
  await trx.updateTable('releases').set(values).where('id', '=', id).execute();
}

export const deleteRelease = (trx: Db, id: string) => trx.deleteFrom('releases').where('id', '=', id).execute();

/** Every instance's version cache reloads when this moves (validation/version-support.ts). */
export const bumpVersionCounter = (trx: Db) =>
  trx.updateTable('release_versions_version').set((eb) => ({ version: eb('version', '+', 1) })).where('id', '=', 1).execute();

/** The file of a release as a download reads it. */
export const fileOf = (db: Db, fileId: string): Promise<ReleaseFilesTable | undefined> =>
  db.selectFrom('release_files').selectAll().where('id', '=', fileId).executeTakeFirst();

/** The license facts a download needs beyond validation: its customer and its release window. */
export const licenseForRelease = (db: Db, licenseId: string) =>
  db.selectFrom('licenses').select(['customer_id', 'updates_until', 'expires_at', 'grace_days']).where('id', '=', licenseId).executeTakeFirst();

export const insertDownload = (db: Db, row: ReleaseDownloadsTable) => db.insertInto('release_downloads').values(row).execute();

export function listDownloads(db: Db, releaseId: string, page: { limit?: number; offset?: number }) {
  let query = db.selectFrom('release_downloads').selectAll().where('release_id', '=', releaseId).orderBy('at', 'desc').orderBy('id', 'desc');
  if (page.limit !== undefined) query = query.limit(page.limit);
  if (page.offset !== undefined) query = query.offset(page.offset);
  return query.execute();
}

export async function countDownloads(db: Db, releaseId: string): Promise<number> {
  const row = await db.selectFrom('release_downloads').select((eb) => eb.fn.countAll<number>().as('n')).where('release_id', '=', releaseId).executeTakeFirstOrThrow();
  return row.n;
}

/** The download whose id or stamped nonce is one of `values` (a trace by constants). */
export async function downloadByStamp(db: Db, values: readonly string[]) {
  if (values.length === 0) return undefined;
  return db
    .selectFrom('release_downloads')
    .selectAll()
    .where((eb) => eb.or([eb('id', 'in', values), eb('nonce', 'in', values)]))
    .orderBy('at', 'desc')
    .limit(1)
    .executeTakeFirst();
}

export const downloadById = (db: Db, id: string) => db.selectFrom('release_downloads').selectAll().where('id', '=', id).executeTakeFirst();

/** The files no release refers to (a replaced draft file, a deleted release's). */
export const unreferencedFiles = (trx: Db, ids: readonly string[]) =>
  ids.length === 0
    ? Promise.resolve([])
    : trx
        .selectFrom('release_files as f')
        .select('f.id')
        .where('f.id', 'in', ids)
        .where(({ not, exists, selectFrom }) => not(exists(selectFrom('releases as r').select(sql<number>`1`.as('one')).whereRef('r.file_id', '=', 'f.id'))))
        .execute();
