// `reset-password <username> [--disable-two-factor]`: a new random password, printed once;
// with the flag, the account's second factor (TOTP and recovery codes) is removed too, for
// an owner who lost it. Only database writes, so it works while the service runs on the
// same database (its next request sees it).
import { HttpError } from '../http/errors.js';
import { resetPassword } from '../modules/staff/passwords.service.js';
import { CliError, UsageError, withMigratedDb, type Command } from './command.js';

const DISABLE_TWO_FACTOR = '--disable-two-factor';

export const resetPasswordCommand: Command = {
  usage: `reset-password <username> [${DISABLE_TWO_FACTOR}]`,
  summary: 'print a new random password for an account, optionally removing its second factor (service running or not)',
  async run(args, config) {
    const disableTwoFactor = args.includes(DISABLE_TWO_FACTOR);
    const names = args.filter((arg) => arg !== DISABLE_TWO_FACTOR);
    const [username] = names;
    if (names.length !== 1 || !username || username.startsWith('--')) throw new UsageError(this.usage);
    const password = await withMigratedDb(config, (db) =>
      resetPassword(db, username, { disableTwoFactor }).catch((err: unknown) => {
        throw err instanceof HttpError ? new CliError(err.message) : err; // e.g. no such account
      }),
    );
    console.log(`New password for "${username}": ${password}`);
    if (disableTwoFactor) console.log('Two-factor sign-in is off for this account (its recovery codes are gone); it can be enrolled again.');
    console.log('Every login token of this account issued before now has stopped working.');
  },
};
