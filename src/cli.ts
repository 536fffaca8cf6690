// Operator commands. `migrate`: apply pending database migrations and exit.
import { ConfigError, loadConfig } from './config.js';
import { createDb, migrateToLatest } from './db/database.js';

async function main(command: string | undefined): Promise<void> {
  if (command !== 'migrate') {
    console.error('usage: cli.js migrate');
    process.exit(2);
  }
  const { db } = createDb(loadConfig().databaseUrl);
  try {
    await migrateToLatest(db);
    console.log('migrations applied');
  } finally {
    await db.destroy();
  }
}

main(process.argv[2]).catch((err: unknown) => {
  console.error(err instanceof ConfigError ? `Invalid configuration: ${err.message}` : err);
  process.exit(1);
});
