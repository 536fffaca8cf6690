// Operator commands: `node dist/cli.js <command> [args]` (`npm run cli -- <command> …`).
// Each command lives in its own module under src/cli/; this file only dispatches.
import { ConfigError, loadConfig } from './config.js';
import { createDb, type Db } from './db/database.js';
import { createAdminCommand } from './cli/create-admin.js';
import { migrateCommand } from './cli/migrate.js';
import { resetPasswordCommand, UsageError } from './cli/reset-password.js';

const COMMANDS: Record<string, { usage: string; run: (db: Db, args: string[]) => Promise<void> }> = {
  migrate: { usage: 'migrate', run: migrateCommand },
  'reset-password': { usage: 'reset-password <username>', run: resetPasswordCommand },
  'create-admin': { usage: 'create-admin <username>', run: createAdminCommand },
};

function usage(): never {
  console.error(`usage: cli.js ${Object.values(COMMANDS).map((c) => c.usage).join(' | ')}`);
  process.exit(2);
}

async function main([command, ...args]: string[]): Promise<void> {
  const entry = command ? COMMANDS[command] : undefined;
  if (!entry) usage();
  const { db } = createDb(loadConfig().databaseUrl);
  try {
    await entry.run(db, args);
  } finally {
    await db.destroy();
  }
}

main(process.argv.slice(2)).catch((err: unknown) => {
  if (err instanceof UsageError) {
    console.error(`usage: cli.js ${err.message}`);
    process.exit(2);
  }
  console.error(err instanceof ConfigError ? `Invalid configuration: ${err.message}` : err instanceof Error ? err.message : err);
  process.exit(1);
});
