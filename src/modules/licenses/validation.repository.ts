// The validation queries through Kysely (the PostgreSQL path): the license row is read
// FOR UPDATE, so validations of one license, from any instance, run one after another.
import type { Db } from '../../db/database.js';
import type { NewValidationAttempt } from '../../db/schema.js';
import type { SlotUsage } from './validation.sqlite-statements.js';

export const lockLicense = (trx: Db, id: string) =>
  trx
    .selectFrom('licenses')
    .select(['product_id', 'expires_at', 'max_ips', 'max_hwids'])
    .where('id', '=', id)
    .forUpdate()
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

export const insertAttempt = (trx: Db, row: NewValidationAttempt) => trx.insertInto('validation_attempts').values(row).execute();
