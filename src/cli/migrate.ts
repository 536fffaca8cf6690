// `migrate`: apply pending database migrations and exit.
import { createDb, migrateToLatest } from '../db/database.js';
import { UsageError, type Command } from './command.js';

export const migrateCommand: Command = {
  usage: 'migrate',
  summary: 'apply pending database migrations',
  async run(args, config) {
    if (args.length > 0) throw new UsageError('migrate');
    const { db } = createDb(config.databaseUrl);
    try {
      await migrateToLatest(db);
      console.log('migrations applied');
    } finally {
      await db.destroy();
    }
  },
};
