// `create-admin <username>`: creates a Master Admin with a random password (printed
// once), only when no Master Admin exists.
import { migrateToLatest, type Db } from '../db/database.js';
import { randomToken } from '../lib/secrets.js';
import { findStaffByUsername, masterAdminExists } from '../modules/staff/staff.repository.js';
import { createMasterAdmin } from '../modules/staff/staff.service.js';
import { UsageError } from './reset-password.js';

export async function createAdminCommand(db: Db, args: string[]): Promise<void> {
  const username = args[0];
  if (!username) throw new UsageError('create-admin <username>');
  await migrateToLatest(db);
  if (await masterAdminExists(db)) throw new Error('A Master Admin already exists; use reset-password to recover its access');
  if (await findStaffByUsername(db, username)) throw new Error(`Username already taken: ${username}`);
  const password = randomToken(18);
  await createMasterAdmin(db, { username, password, email: null });
  console.log(`Created Master Admin "${username}" with password: ${password}`);
}
