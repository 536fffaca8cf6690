// Every query on signing_keys.
import type { Db } from '../../db/database.js';
import type { SigningKeysTable } from '../../db/schema.js';

/** `slot` of the key that signs; unique, so there is at most one. */
export const CURRENT = 'current';
/** `slot` of the key published ahead of its activation (never signs); unique too. */
export const NEXT = 'next';

export type KeyState = 'current' | 'next' | 'retired';

/** A stored key's state: its slot, or retired when it has none. */
export const stateOf = (row: Pick<SigningKeysTable, 'slot'>): KeyState =>
  row.slot === CURRENT ? 'current' : row.slot === NEXT ? 'next' : 'retired';

/** Inserts the first current key unless another instance already did (the slot is unique). */
export const insertCurrentIfNone = (db: Db, row: SigningKeysTable) =>
  db.insertInto('signing_keys').values(row).onConflict((oc) => oc.column('slot').doNothing()).execute();

export const findCurrent = (db: Db) => db.selectFrom('signing_keys').selectAll().where('slot', '=', CURRENT).executeTakeFirst();

export const listKeys = (db: Db) => db.selectFrom('signing_keys').selectAll().orderBy('created_at', 'desc').orderBy('kid').execute();

/** Every key that may sign: the current one and the retired ones (clients that pin them ask for them). */
export const listSignable = (db: Db) =>
  db
    .selectFrom('signing_keys')
    .select(['kid', 'slot', 'private_key'])
    .where((eb) => eb.or([eb('slot', 'is', null), eb('slot', '=', CURRENT)]))
    .execute();

export const listPublic = (db: Db) =>
  db.selectFrom('signing_keys').select(['kid', 'public_x', 'slot', 'created_at']).orderBy('created_at', 'desc').orderBy('kid').execute();

export const findKey = (db: Db, kid: string) => db.selectFrom('signing_keys').selectAll().where('kid', '=', kid).executeTakeFirst();

/** Retires the current key; returns whether there was one. */
export async function retireCurrent(trx: Db, now: number): Promise<boolean> {
  const result = await trx.updateTable('signing_keys').set({ slot: null, retired_at: now }).where('slot', '=', CURRENT).executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

export const insertKey = (trx: Db, row: SigningKeysTable) => trx.insertInto('signing_keys').values(row).execute();

/** Makes the next key `kid` current (the caller has retired the current one). */
export async function promote(trx: Db, kid: string): Promise<boolean> {
  const result = await trx.updateTable('signing_keys').set({ slot: CURRENT }).where('kid', '=', kid).where('slot', '=', NEXT).executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

export const deleteKey = (trx: Db, kid: string) => trx.deleteFrom('signing_keys').where('kid', '=', kid).execute();

export const findNext = (db: Db) => db.selectFrom('signing_keys').selectAll().where('slot', '=', NEXT).executeTakeFirst();

/**
 * Records that `kid` signed at `at`; never moves the time back (another instance may have
 * written a later one). A deleted key updates nothing.
 */
export const recordLastSigned = (db: Db, kid: string, at: number) =>
  db
    .updateTable('signing_keys')
    .set({ last_signed_at: at })
    .where('kid', '=', kid)
    .where((eb) => eb.or([eb('last_signed_at', 'is', null), eb('last_signed_at', '<', at)]))
    .execute();
