// The validation queries through Kysely (the PostgreSQL path; SQLite prepares the same
// history-pruning queries once, validation.sqlite-statements.ts). A validation that may
// bind locks the license row (FOR NO KEY UPDATE), so those of one license, from any
// instance, run one after another. NO KEY: the lock does not hold up inserting attempts,
// whose foreign key only needs the row to stay.
import type { Db } from '../../db/database.js';
import type { NewValidationAttempt } from '../../db/schema.js';
import type { SlotUsage } from './validation.types.js';

/** The license, whether the IP and HWID are bound to it and how many are, in one query, without locks. */
export const readLicenseAndBindings = (db: Db, id: string, ip: string, hwid: string) =>
  db
    .selectFrom('licenses')
    .select((eb) => [
      'product_id',
      'expires_at',
      'max_ips',
      'max_hwids',
      eb.exists(eb.selectFrom('license_ips').select('ip').where('license_id', '=', id).where('ip', '=', ip)).as('ip_bound'),
      eb
        .exists(eb.selectFrom('license_hwids').select('hwid').where('license_id', '=', id).where('hwid', '=', hwid))
        .as('hwid_bound'),
      eb.selectFrom('license_ips').select((count) => count.fn.countAll<number>().as('n')).where('license_id', '=', id).as('ips_used'),
      eb.selectFrom('license_hwids').select((count) => count.fn.countAll<number>().as('n')).where('license_id', '=', id).as('hwids_used'),
    ])
    .where('id', '=', id)
    .executeTakeFirst();

export const lockLicense = (trx: Db, id: string) =>
  trx
    .selectFrom('licenses')
    .select(['product_id', 'expires_at', 'max_ips', 'max_hwids'])
    .where('id', '=', id)
    .forNoKeyUpdate()
    .executeTakeFirst();

export async function isIpBound(trx: Db, licenseId: string, ip: string): Promise<boolean> {
  const row = await trx.selectFrom('license_ips').select('ip').where('license_id', '=', licenseId).where('ip', '=', ip).executeTakeFirst();
  return row !== undefined;
}

export async function isHwidBound(trx: Db, licenseId: string, hwid: string): Promise<boolean> {
  const row = await trx
    .selectFrom('license_hwids')
    .select('hwid')
    .where('license_id', '=', licenseId)
    .where('hwid', '=', hwid)
    .executeTakeFirst();
  return row !== undefined;
}

export async function slotUsage(trx: Db, table: 'license_ips' | 'license_hwids', licenseId: string): Promise<SlotUsage> {
  const row = await trx
    .selectFrom(table)
    .select((eb) => [eb.fn.countAll<number>().as('used'), eb.fn.max<number | null>('position').as('last')])
    .where('license_id', '=', licenseId)
    .executeTakeFirstOrThrow();
  return { used: Number(row.used), next: row.last === null ? 0 : Number(row.last) + 1 };
}

export const bindIp = (trx: Db, licenseId: string, ip: string, position: number) =>
  trx.insertInto('license_ips').values({ license_id: licenseId, ip, position }).execute();

export const bindHwid = (trx: Db, licenseId: string, hwid: string, position: number) =>
  trx.insertInto('license_hwids').values({ license_id: licenseId, hwid, position }).execute();

/** Inserts the attempts, in order, with one statement (at most ATTEMPTS_PER_INSERT.postgres rows). */
export const insertAttempts = (db: Db, rows: readonly NewValidationAttempt[]) =>
  db
    .insertInto('validation_attempts')
    .values([...rows])
    .execute();

/**
 * The history rule, for both engines: a license keeps its `keep` most recent attempts
 * (newest by timestamp, then id). This is the oldest one kept, if it has more.
 */
export const oldestKeptAttempt = (db: Db, licenseId: string, keep: number) =>
  db
    .selectFrom('validation_attempts')
    .select(['timestamp', 'id'])
    .where('license_id', '=', licenseId)
    .orderBy('timestamp', 'desc')
    .orderBy('id', 'desc')
    .limit(1)
    .offset(keep - 1);

/** Deletes the license's attempts older than `oldestKept`. */
export const deleteAttemptsOlderThan = (db: Db, licenseId: string, oldestKept: { timestamp: number; id: number }) =>
  db
    .deleteFrom('validation_attempts')
    .where('license_id', '=', licenseId)
    .where((eb) =>
      eb.or([
        eb('timestamp', '<', oldestKept.timestamp),
        eb.and([eb('timestamp', '=', oldestKept.timestamp), eb('id', '<', oldestKept.id)]),
      ]),
    );

/** Deletes all but the `keep` most recent attempts of the license. */
export async function pruneAttempts(db: Db, licenseId: string, keep: number): Promise<void> {
  const oldestKept = await oldestKeptAttempt(db, licenseId, keep).executeTakeFirst();
  if (oldestKept) await deleteAttemptsOlderThan(db, licenseId, oldestKept).execute();
}
