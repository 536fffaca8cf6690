// Password change (own), set (Master Admin for another account) and reset (operator
// CLI). Each ends the account's login tokens issued before it (password_changed_at).
import type { Db } from '../../db/database.js';
import { badRequest, forbidden, notFound } from '../../http/errors.js';
import { hashPassword, randomToken } from '../../lib/secrets.js';
import { recordAudit } from '../audit/audit.service.js';
import type { Actor } from '../../http/actor.js';
import type { PasswordAttempts } from '../../http/password-attempts.js';
import type { StaffTable } from '../../db/schema.js';
import { removeSecondFactor } from '../two-factor/two-factor.service.js';
import * as repo from './staff.repository.js';

export const MIN_PASSWORD_LENGTH = 8;

export function assertPasswordStrength(password: string): void {
  if ([...password].length < MIN_PASSWORD_LENGTH) {
    throw badRequest(`newPassword must be at least ${MIN_PASSWORD_LENGTH} characters`);
  }
}

export async function changeOwnPassword(
  db: Db,
  actor: Actor,
  attempts: PasswordAttempts,
  currentPassword: string,
  newPassword: string,
): Promise<void> {
  assertPasswordStrength(newPassword);
  const staff = await repo.findStaffById(db, actor.id);
  if (!staff) throw notFound('Staff account not found');
  if (!(await attempts.verify(staff.password_hash, currentPassword))) throw forbidden('Current password is wrong');
  const passwordHash = await hashPassword(newPassword);
  await db.transaction().execute(async (trx) => {
    await repo.setStaffPassword(trx, staff.id, passwordHash, Date.now());
    await recordAudit(trx, actor.username, 'staff.changePassword', { id: staff.id, username: staff.username });
  });
}

/**
 * Sets `username`'s (or id's) password; audited as staff.setPassword by `performedBy`.
 * `alsoInTransaction` commits with it (the CLI's removal of a lost second factor).
 */
async function setPassword(
  db: Db,
  performedBy: string,
  find: () => ReturnType<typeof repo.findStaffById>,
  newPassword: string,
  alsoInTransaction?: (trx: Db, staff: StaffTable) => Promise<void>,
) {
  assertPasswordStrength(newPassword);
  const staff = await find();
  if (!staff) throw notFound('Staff account not found');
  const passwordHash = await hashPassword(newPassword);
  await db.transaction().execute(async (trx) => {
    await repo.setStaffPassword(trx, staff.id, passwordHash, Date.now());
    await recordAudit(trx, performedBy, 'staff.setPassword', { id: staff.id, username: staff.username });
    await alsoInTransaction?.(trx, staff);
  });
}

export const MASTER_ADMIN_PASSWORD_REFUSED =
  "The Master Admin's password is changed with its current password (PUT /staff/me/password) or the reset-password CLI";

/** PUT /staff/{id}/password: any account but the Master Admin, whose password needs its current one. */
export const setPasswordOf = (db: Db, actor: Actor, id: string, newPassword: string) =>
  setPassword(
    db,
    actor.username,
    async () => {
      const staff = await repo.findStaffById(db, id);
      if (staff?.is_master_admin === 1) throw forbidden(MASTER_ADMIN_PASSWORD_REFUSED);
      return staff;
    },
    newPassword,
  );

/**
 * Operator reset: a new random password (returned, to be shown once); with
 * `disableTwoFactor`, the account's second factor (TOTP and recovery codes) goes too.
 */
export async function resetPassword(db: Db, username: string, options: { disableTwoFactor?: boolean } = {}): Promise<string> {
  const password = randomToken(18);
  const removeTwoFactor = options.disableTwoFactor
    ? (trx: Db, staff: StaffTable) => removeSecondFactor(trx, 'cli', staff)
    : undefined;
  await setPassword(db, 'cli', () => repo.findStaffByUsername(db, username), password, removeTwoFactor);
  return password;
}
