// `reset-password <username>`: a new random password, printed once. Only database writes,
// so it works while the service runs on the same database (its next request sees it).
import { migrateToLatest, type Db } from '../db/database.js';
import { resetPassword } from '../modules/staff/passwords.service.js';

export async function resetPasswordCommand(db: Db, args: string[]): Promise<void> {
  const username = args[0];
  if (!username) throw new UsageError('reset-password <username>');
  await migrateToLatest(db);
  const password = await resetPassword(db, username);
  console.log(`New password for "${username}": ${password}`);
  console.log('Every login token of this account issued before now has stopped working.');
}

export class UsageError extends Error {}
