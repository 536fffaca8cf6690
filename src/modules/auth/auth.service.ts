import type { Static } from '@sinclair/typebox';
import type { Db } from '../../db/database.js';
import type { StaffTable } from '../../db/schema.js';
import { HttpError } from '../../http/errors.js';
import type { FailureLimiter } from '../../lib/failure-limiter.js';
import { decoyPasswordHash, verifyPassword } from '../../lib/secrets.js';
import { findStaffByUsername } from '../staff/staff.repository.js';
import { verifySecondFactor } from '../two-factor/two-factor.service.js';
import type { Actor } from '../../http/actor.js';
import { limitedGuess } from '../../http/password-attempts.js';
import { actorFromStaff } from './actor.js';
import { passwordChangeCutoff, type TokenService } from './tokens.js';
import type { LoginResponseSchema } from './auth.schemas.js';

/** What POST /auth/login answers: the schema's type, not a copy of it. */
export type LoginResult = Static<typeof LoginResponseSchema>;

export const INVALID_LOGIN = 'Invalid username or password';
export const TWO_FACTOR_REQUIRED = 'Two-factor code required';
export const INVALID_TWO_FACTOR = 'Invalid two-factor code';

/**
 * Checks username and password. Returns the account, or throws 401 with the same
 * message for an unknown user and a wrong password.
 */
export async function checkPassword(db: Db, username: string, password: string): Promise<StaffTable> {
  const staff = await findStaffByUsername(db, username);
  // Verify against a decoy hash for unknown users so timing does not reveal them.
  const ok = await verifyPassword(staff?.password_hash ?? (await decoyPasswordHash()), password);
  if (!staff || !ok) throw new HttpError(401, INVALID_LOGIN);
  if (staff.active !== 1) throw new HttpError(401, 'Account is deactivated');
  return staff;
}

/** Basic credentials: the password alone, so never for an account with two-factor sign-in. */
export async function checkCredentials(db: Db, username: string, password: string): Promise<Actor> {
  const staff = await checkPassword(db, username, password);
  if (staff.totp_enabled === 1) {
    throw new HttpError(401, 'Basic credentials are refused for accounts with two-factor sign-in; scripts should use an API token');
  }
  return actorFromStaff(db, staff);
}

/** Failures that count toward the brute-force limit: a wrong password or a wrong code. */
const isGuessFailure = (err: unknown) =>
  err instanceof HttpError && (err.message === INVALID_LOGIN || err.message === INVALID_TWO_FACTOR);

export async function login(
  db: Db,
  tokens: TokenService,
  limiter: FailureLimiter,
  clientIp: string,
  credentials: { username: string; password: string; totp?: string | undefined },
): Promise<LoginResult> {
  // The password and the code are one guess: it holds its place in the IP's limit
  // while both are checked, and keeps it only when one of them was wrong.
  const staff = await limitedGuess(
    limiter,
    [clientIp],
    async () => {
      const found = await checkPassword(db, credentials.username, credentials.password);
      if (found.totp_enabled === 1) {
        if (!credentials.totp) throw new HttpError(401, TWO_FACTOR_REQUIRED);
        if (!(await verifySecondFactor(db, found, credentials.totp))) throw new HttpError(401, INVALID_TWO_FACTOR);
      }
      return found;
    },
    isGuessFailure,
  );
  const actor = await actorFromStaff(db, staff);
  return {
    token: await tokens.sign(actor.id, passwordChangeCutoff(staff.password_changed_at)),
    user: {
      username: actor.username,
      isMasterAdmin: actor.isMasterAdmin,
      permissions: actor.permissions,
      role: actor.roleNames,
    },
  };
}
