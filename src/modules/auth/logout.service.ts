// Sign-out: the presented login token's jti goes on the revocation list, which every
// instance reads, until the token would have expired anyway.
import type { Db } from '../../db/database.js';
import { badRequest } from '../../http/errors.js';
import type { Actor } from '../../http/actor.js';
import { insertRevokedToken, pruneRevokedTokens } from './revoked-tokens.repository.js';

export async function logout(db: Db, actor: Actor): Promise<void> {
  const credential = actor.credential;
  if (credential?.kind !== 'login') throw badRequest('Sign-out ends a login token: send the one from POST /auth/login as Bearer');
  const now = Date.now();
  await insertRevokedToken(db, credential.jti, credential.expiresAtSeconds * 1000);
  // Cheap housekeeping on the same occasion (indexed by expiry).
  await pruneRevokedTokens(db, now);
}
