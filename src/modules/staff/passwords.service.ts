// Password change (own), set (Master Admin for another account) and reset (operator
// CLI). Each ends the account's login tokens issued before it (password_changed_at).
import type { Db } from '../../db/database.js';
import { badRequest, forbidden, notFound } from '../../http/errors.js';
import { hashPassword, randomToken, verifyPassword } from '../../lib/secrets.js';
import { recordAudit } from '../audit/audit.service.js';
import type { Actor } from '../auth/actor.js';
import type { PasswordAttempts } from '../auth/password-attempts.js';
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
  await attempts.assertAllowed();
  if (!(await verifyPassword(staff.password_hash, currentPassword))) {
    await attempts.recordFailure();
    throw forbidden('Current password is wrong');
  }
  const passwordHash = await hashPassword(newPassword);
  await db.transaction().execute(async (trx) => {
    await repo.setStaffPassword(trx, staff.id, passwordHash, Date.now());
    await recordAudit(trx, actor.username, 'staff.changePassword', { id: staff.id, username: staff.username });
  });
}

/** Sets `username`'s (or id's) password; audited as staff.setPassword by `performedBy`. */
async function setPassword(db: Db, performedBy: string, find: () => ReturnType<typeof repo.findStaffById>, newPassword: string) {
  assertPasswordStrength(newPassword);
  const staff = await find();
  if (!staff) throw notFound('Staff account not found');
  const passwordHash = await hashPassword(newPassword);
  await db.transaction().execute(async (trx) => {
    await repo.setStaffPassword(trx, staff.id, passwordHash, Date.now());
    await recordAudit(trx, performedBy, 'staff.setPassword', { id: staff.id, username: staff.username });
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

/** Operator reset: a new random password (returned, to be shown once). */
export async function resetPassword(db: Db, username: string): Promise<string> {
  const password = randomToken(18);
  await setPassword(db, 'cli', () => repo.findStaffByUsername(db, username), password);
  return password;
}
