import type { Db } from '../../db/database.js';
import type { ApiTokensTable } from '../../db/schema.js';

export const findTokenByHash = (db: Db, tokenHash: string) =>
  db.selectFrom('api_tokens').selectAll().where('token_hash', '=', tokenHash).executeTakeFirst();

export const findTokenOfStaff = (db: Db, staffId: string, id: string) =>
  db.selectFrom('api_tokens').selectAll().where('id', '=', id).where('staff_id', '=', staffId).executeTakeFirst();

export const listTokensOfStaff = (db: Db, staffId: string) =>
  db.selectFrom('api_tokens').selectAll().where('staff_id', '=', staffId).orderBy('created_at').orderBy('id').execute();

export const insertToken = (trx: Db, row: ApiTokensTable) => trx.insertInto('api_tokens').values(row).execute();

export const deleteToken = (trx: Db, id: string) => trx.deleteFrom('api_tokens').where('id', '=', id).execute();

/** Records a use, but writes at most once per `intervalMs` per token. */
export const touchToken = (db: Db, id: string, now: number, intervalMs: number) =>
  db
    .updateTable('api_tokens')
    .set({ last_used_at: now })
    .where('id', '=', id)
    .where((eb) => eb.or([eb('last_used_at', 'is', null), eb('last_used_at', '<=', now - intervalMs)]))
    .execute();
