// `create-admin <username>`: creates a Master Admin with a random password (printed
// once), only when no Master Admin exists.
import { randomToken } from '../lib/secrets.js';
import { findStaffByUsernameKey, masterAdminExists } from '../modules/staff/staff.repository.js';
import { createMasterAdmin } from '../modules/staff/staff.service.js';
import { CliError, UsageError, withMigratedDb, type Command } from './command.js';

export const createAdminCommand: Command = {
  usage: 'create-admin <username>',
  summary: 'create a Master Admin when none exists (prints its password)',
  async run(args, config) {
    const [username] = args;
    if (args.length !== 1 || !username) throw new UsageError(this.usage);
    const password = randomToken(18);
    await withMigratedDb(config, async (db) => {
      if (await masterAdminExists(db)) throw new CliError('A Master Admin already exists; use reset-password to recover its access');
      if (await findStaffByUsernameKey(db, username)) throw new CliError(`Username already taken: ${username}`);
      await createMasterAdmin(db, { username, password, email: null });
    });
    console.log(`Created Master Admin "${username}" with password: ${password}`);
  },
};
