// The settings table: values the service generates once and every instance shares.
import type { Db } from '../../db/database.js';

/** Stores `value` under `key` unless a value is there already (the first instance wins). */
export const insertSettingIfAbsent = (db: Db, key: string, value: string) =>
  db
    .insertInto('settings')
    .values({ key, value })
    .onConflict((oc) => oc.column('key').doNothing())
    .execute();

export async function readSetting(db: Db, key: string): Promise<string> {
  const row = await db.selectFrom('settings').select('value').where('key', '=', key).executeTakeFirstOrThrow();
  return row.value;
}
