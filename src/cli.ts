// Operator commands: `npm run cli -- <command> [arguments]`. Each command lives in its
// own module under cli/; this file only picks one from the table.
import { ConfigError, loadConfig } from './config.js';
import { backupCommand } from './cli/backup.js';
import { CliError, UsageError, type Command } from './cli/command.js';
import { createAdminCommand } from './cli/create-admin.js';
import { doctorCommand } from './cli/doctor.js';
import { exportCommand } from './cli/export.js';
import { importCommand } from './cli/import.js';
import { migrateCommand } from './cli/migrate.js';
import { resetPasswordCommand } from './cli/reset-password.js';
import { restoreCommand } from './cli/restore.js';

const COMMANDS: Record<string, Command> = {
  migrate: migrateCommand,
  backup: backupCommand,
  restore: restoreCommand,
  export: exportCommand,
  import: importCommand,
  'reset-password': resetPasswordCommand,
  'create-admin': createAdminCommand,
  doctor: doctorCommand,
};

function usage(): string {
  const width = Math.max(...Object.values(COMMANDS).map((c) => c.usage.length));
  const lines = Object.values(COMMANDS).map((c) => `  ${c.usage.padEnd(width)}  ${c.summary}`);
  return ['usage: npm run cli -- <command>', ...lines].join('\n');
}

async function main([name, ...args]: string[]): Promise<void> {
  const command = name !== undefined && Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined;
  if (!command) {
    console.error(usage());
    process.exit(2);
  }
  await command.run(args, loadConfig());
}

main(process.argv.slice(2)).catch((err: unknown) => {
  if (err instanceof ConfigError) console.error(`Invalid configuration: ${err.message}`);
  else if (err instanceof CliError) console.error(err.message);
  else console.error(err);
  process.exit(err instanceof UsageError ? 2 : 1);
});
