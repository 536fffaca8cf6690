import type { Db } from '../../db/database.js';

/** Stores a pending (not yet enabled) secret, replacing any earlier pending one. */
/** The account whose second factor this module keeps (its columns live on the staff row). */
export const findAccount = (db: Db, staffId: string) => db.selectFrom('staff').selectAll().where('id', '=', staffId).executeTakeFirst();

export const setPendingSecret = (trx: Db, staffId: string, secret: string) =>
  trx.updateTable('staff').set({ totp_secret: secret, totp_enabled: 0, totp_last_step: null }).where('id', '=', staffId).execute();

export const enableTotp = (trx: Db, staffId: string) =>
  trx.updateTable('staff').set({ totp_enabled: 1 }).where('id', '=', staffId).execute();

export const clearTotp = (trx: Db, staffId: string) =>
  trx.updateTable('staff').set({ totp_secret: null, totp_enabled: 0, totp_last_step: null }).where('id', '=', staffId).execute();

/**
 * Claims a time step for the account: true only if it is later than the last one used.
 * One conditional UPDATE, so two instances cannot both accept the same code.
 */
export async function claimStep(db: Db, staffId: string, step: number): Promise<boolean> {
  const result = await db
    .updateTable('staff')
    .set({ totp_last_step: step })
    .where('id', '=', staffId)
    .where((eb) => eb.or([eb('totp_last_step', 'is', null), eb('totp_last_step', '<', step)]))
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

export async function replaceRecoveryCodes(trx: Db, staffId: string, codeHashes: readonly string[]): Promise<void> {
  await trx.deleteFrom('staff_recovery_codes').where('staff_id', '=', staffId).execute();
  if (codeHashes.length === 0) return;
  await trx
    .insertInto('staff_recovery_codes')
    .values(codeHashes.map((code_hash) => ({ staff_id: staffId, code_hash, used_at: null })))
    .execute();
}

export const deleteRecoveryCodes = (trx: Db, staffId: string) =>
  trx.deleteFrom('staff_recovery_codes').where('staff_id', '=', staffId).execute();

/** Marks an unused code used; false when it is unknown or was used already. */
export async function useRecoveryCode(db: Db, staffId: string, codeHash: string, now: number): Promise<boolean> {
  const result = await db
    .updateTable('staff_recovery_codes')
    .set({ used_at: now })
    .where('staff_id', '=', staffId)
    .where('code_hash', '=', codeHash)
    .where('used_at', 'is', null)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}
