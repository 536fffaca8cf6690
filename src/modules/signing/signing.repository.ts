// Every query on signing_keys.
import type { Db } from '../../db/database.js';
import type { SigningKeysTable } from '../../db/schema.js';

export const CURRENT = 'current';

/** Inserts the first current key unless another instance already did (the slot is unique). */
export const insertCurrentIfNone = (db: Db, row: SigningKeysTable) =>
  db.insertInto('signing_keys').values(row).onConflict((oc) => oc.column('slot').doNothing()).execute();

export const findCurrent = (db: Db) => db.selectFrom('signing_keys').selectAll().where('slot', '=', CURRENT).executeTakeFirst();

export const listKeys = (db: Db) => db.selectFrom('signing_keys').selectAll().orderBy('created_at', 'desc').orderBy('kid').execute();

export const listPublic = (db: Db) =>
  db.selectFrom('signing_keys').select(['kid', 'public_x', 'slot', 'created_at']).orderBy('created_at', 'desc').orderBy('kid').execute();

export const findKey = (db: Db, kid: string) => db.selectFrom('signing_keys').selectAll().where('kid', '=', kid).executeTakeFirst();

/** Retires the current key; returns whether there was one. */
export async function retireCurrent(trx: Db, now: number): Promise<boolean> {
  const result = await trx.updateTable('signing_keys').set({ slot: null, retired_at: now }).where('slot', '=', CURRENT).executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

export const insertKey = (trx: Db, row: SigningKeysTable) => trx.insertInto('signing_keys').values(row).execute();

export const deleteKey = (trx: Db, kid: string) => trx.deleteFrom('signing_keys').where('kid', '=', kid).execute();
