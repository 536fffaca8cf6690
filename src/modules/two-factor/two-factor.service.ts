// Two-factor sign-in (TOTP, RFC 6238) per account: enrol (pending secret), confirm with
// a code and the password (enabled, recovery codes shown once), disable with the
// password, or an operator's `reset-password --disable-two-factor`.
import type { Db } from '../../db/database.js';
import type { StaffTable } from '../../db/schema.js';
import { badRequest, conflict, forbidden, notFound } from '../../http/errors.js';
import { recordAudit } from '../audit/audit.service.js';
import type { Actor } from '../../http/actor.js';
import type { PasswordAttempts } from '../../http/password-attempts.js';
import { hashRecoveryCode, looksLikeRecoveryCode, newRecoveryCode, RECOVERY_CODE_COUNT } from './recovery-codes.js';
import { matchingStep, newTotpSecret, otpauthUri } from './totp.js';
import * as repo from './two-factor.repository.js';

const INVALID_CODE = 'Invalid two-factor code';
const WRONG_PASSWORD = 'Wrong password';

async function staffOf(db: Db, actor: Actor): Promise<StaffTable> {
  const staff = await repo.findAccount(db, actor.id);
  if (!staff) throw notFound('Staff account not found');
  return staff;
}

/** A TOTP code accepted once: its step must be later than the last one used. */
async function acceptTotp(db: Db, staff: StaffTable, code: string): Promise<boolean> {
  if (!staff.totp_secret) return false;
  const step = matchingStep(staff.totp_secret, code.trim());
  return step !== null && (await repo.claimStep(db, staff.id, step));
}

/** A current TOTP code or an unused recovery code (which is then used up). */
export async function verifySecondFactor(db: Db, staff: StaffTable, code: string): Promise<boolean> {
  if (looksLikeRecoveryCode(code)) return repo.useRecoveryCode(db, staff.id, hashRecoveryCode(code), Date.now());
  return acceptTotp(db, staff, code);
}

export async function startEnrolment(db: Db, actor: Actor): Promise<{ secret: string; otpauthUri: string }> {
  const staff = await staffOf(db, actor);
  if (staff.totp_enabled === 1) throw conflict('Two-factor sign-in is already enabled');
  const secret = newTotpSecret();
  await repo.setPendingSecret(db, staff.id, secret);
  return { secret, otpauthUri: otpauthUri(secret, staff.username) };
}

/** Turns two-factor sign-in on: needs the current password (a guess like any other) and a current code. */
export async function confirmEnrolment(
  db: Db,
  actor: Actor,
  attempts: PasswordAttempts,
  password: string,
  code: string,
): Promise<{ recoveryCodes: string[] }> {
  const staff = await staffOf(db, actor);
  if (!(await attempts.verify(staff.password_hash, password))) throw forbidden(WRONG_PASSWORD);
  if (staff.totp_enabled === 1) throw conflict('Two-factor sign-in is already enabled');
  if (!staff.totp_secret) throw conflict('Start two-factor enrolment first (POST /staff/me/totp)');
  if (!(await acceptTotp(db, staff, code))) throw badRequest(INVALID_CODE);
  const recoveryCodes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
  await db.transaction().execute(async (trx) => {
    await repo.enableTotp(trx, staff.id);
    await repo.replaceRecoveryCodes(trx, staff.id, recoveryCodes.map(hashRecoveryCode));
    await recordAudit(trx, actor.username, 'staff.totp.enable', { id: staff.id, username: staff.username });
  });
  return { recoveryCodes };
}

export async function disable(db: Db, actor: Actor, attempts: PasswordAttempts, password: string): Promise<void> {
  const staff = await staffOf(db, actor);
  if (!(await attempts.verify(staff.password_hash, password))) throw forbidden(WRONG_PASSWORD);
  if (staff.totp_enabled !== 1 && !staff.totp_secret) throw conflict('Two-factor sign-in is not enabled');
  await db.transaction().execute((trx) => removeSecondFactor(trx, actor.username, staff));
}

/** Operator recovery (`reset-password --disable-two-factor`): removes the account's second factor, audited by `performedBy`. */
export async function removeSecondFactor(trx: Db, performedBy: string, staff: StaffTable): Promise<void> {
  await repo.clearTotp(trx, staff.id);
  await repo.deleteRecoveryCodes(trx, staff.id);
  await recordAudit(trx, performedBy, 'staff.totp.disable', { id: staff.id, username: staff.username });
}
