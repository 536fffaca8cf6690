import type { Static } from '@sinclair/typebox';
import type { Db } from '../../db/database.js';
import { HttpError } from '../../http/errors.js';
import type { FailureLimiter } from '../../lib/failure-limiter.js';
import { decoyPasswordHash, verifyPassword } from '../../lib/secrets.js';
import { findStaffByUsername } from '../staff/staff.repository.js';
import { actorFromStaff, type Actor } from './actor.js';
import type { LoginResponseSchema } from './auth.schemas.js';
import type { TokenService } from './tokens.js';

/** What POST /auth/login answers: the schema's type, not a copy of it. */
export type LoginResult = Static<typeof LoginResponseSchema>;

export const INVALID_LOGIN = 'Invalid username or password';

/**
 * Checks username and password. Returns the account's actor, or throws 401 with the
 * same message for an unknown user and a wrong password.
 */
export async function checkCredentials(db: Db, username: string, password: string): Promise<Actor> {
  const staff = await findStaffByUsername(db, username);
  // Verify against a decoy hash for unknown users so timing does not reveal them.
  const ok = await verifyPassword(staff?.password_hash ?? (await decoyPasswordHash()), password);
  if (!staff || !ok) throw new HttpError(401, INVALID_LOGIN);
  if (staff.active !== 1) throw new HttpError(401, 'Account is deactivated');
  return actorFromStaff(db, staff);
}

export async function login(
  db: Db,
  tokens: TokenService,
  limiter: FailureLimiter,
  clientIp: string,
  username: string,
  password: string,
): Promise<LoginResult> {
  const wait = await limiter.retryAfterSeconds(clientIp);
  if (wait > 0) {
    throw new HttpError(429, 'Too many login attempts. Try again later.', { 'retry-after': String(wait) });
  }
  let actor: Actor;
  try {
    actor = await checkCredentials(db, username, password);
  } catch (err) {
    if (err instanceof HttpError && err.message === INVALID_LOGIN) await limiter.recordFailure(clientIp);
    throw err;
  }
  return {
    token: await tokens.sign(actor.id),
    user: {
      username: actor.username,
      isMasterAdmin: actor.isMasterAdmin,
      permissions: actor.permissions,
      role: actor.roleNames,
    },
  };
}
