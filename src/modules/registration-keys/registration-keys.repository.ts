import type { Db } from '../../db/database.js';
import type { RegistrationKeysTable } from '../../db/schema.js';

export const findKeyByHash = (db: Db, keyHash: string) =>
  db.selectFrom('registration_keys').selectAll().where('key_hash', '=', keyHash).executeTakeFirst();

export const findKeyById = (db: Db, id: string) =>
  db.selectFrom('registration_keys').selectAll().where('id', '=', id).executeTakeFirst();

export const listKeys = (db: Db) =>
  db.selectFrom('registration_keys').selectAll().orderBy('created_at', 'desc').orderBy('id', 'desc').execute();

export const insertKey = (trx: Db, row: RegistrationKeysTable) => trx.insertInto('registration_keys').values(row).execute();

/** Marks the key used if it still is unused; false when another registration got there first. */
export async function markKeyUsed(trx: Db, keyHash: string, usedBy: string, usedAt: number): Promise<boolean> {
  const result = await trx
    .updateTable('registration_keys')
    .set({ used_at: usedAt, used_by: usedBy })
    .where('key_hash', '=', keyHash)
    .where('used_at', 'is', null)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

export async function deleteUnusedKey(trx: Db, id: string): Promise<boolean> {
  const result = await trx
    .deleteFrom('registration_keys')
    .where('id', '=', id)
    .where('used_at', 'is', null)
    .executeTakeFirst();
  return result.numDeletedRows > 0n;
}
