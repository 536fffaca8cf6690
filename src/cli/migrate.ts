// `migrate`: apply pending database migrations and exit.
import { UsageError, withMigratedDb, type Command } from './command.js';

export const migrateCommand: Command = {
  usage: 'migrate',
  summary: 'apply pending database migrations',
  async run(args, config) {
    if (args.length > 0) throw new UsageError('migrate');
    await withMigratedDb(config, async () => {});
    console.log('migrations applied');
  },
};
