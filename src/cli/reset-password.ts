// `reset-password <username>`: a new random password, printed once. Only database writes,
// so it works while the service runs on the same database (its next request sees it).
import { HttpError } from '../http/errors.js';
import { resetPassword } from '../modules/staff/passwords.service.js';
import { CliError, UsageError, withMigratedDb, type Command } from './command.js';

export const resetPasswordCommand: Command = {
  usage: 'reset-password <username>',
  summary: 'print a new random password for an account (service running or not)',
  async run(args, config) {
    const [username] = args;
    if (args.length !== 1 || !username) throw new UsageError(this.usage);
    const password = await withMigratedDb(config, (db) =>
      resetPassword(db, username).catch((err: unknown) => {
        throw err instanceof HttpError ? new CliError(err.message) : err; // e.g. no such account
      }),
    );
    console.log(`New password for "${username}": ${password}`);
    console.log('Every login token of this account issued before now has stopped working.');
  },
};
