// Signed-out login tokens by jti (every instance reads the same table).
import type { Db } from '../../db/database.js';

export const isRevoked = async (db: Db, jti: string): Promise<boolean> =>
  (await db.selectFrom('revoked_tokens').select('jti').where('jti', '=', jti).executeTakeFirst()) !== undefined;

export const insertRevokedToken = (db: Db, jti: string, expiresAt: number) =>
  db.insertInto('revoked_tokens').values({ jti, expires_at: expiresAt }).onConflict((oc) => oc.column('jti').doNothing()).execute();

/** Rows of tokens that have expired anyway are no longer needed. */
export const pruneRevokedTokens = (db: Db, now: number) => db.deleteFrom('revoked_tokens').where('expires_at', '<', now).execute();
