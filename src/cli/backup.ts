// `backup <file>`: a consistent copy of the running SQLite database, taken without
// stopping validations (VACUUM INTO, src/db/storage/sqlite-file.ts), then checked.
import { existsSync } from 'node:fs';
import { CliError, oneFileArgument, type Command } from './command.js';
import { copyDatabaseFile, integrityCheck } from '../db/storage/sqlite-file.js';
import { sqlitePath } from './sqlite-file.js';

export const POSTGRES_BACKUP_ADVICE =
  'DATABASE_URL is PostgreSQL: back it up with pg_dump -Fc (restore with pg_restore), see docs/deploy.md';

export const backupCommand: Command = {
  usage: 'backup <file>',
  summary: 'copy the SQLite database while the service runs (PostgreSQL: pg_dump)',
  async run(args, config) {
    const target = oneFileArgument(args, this.usage);
    const source = sqlitePath(config, POSTGRES_BACKUP_ADVICE);
    if (!existsSync(source)) throw new CliError(`No database at ${source}`);
    if (existsSync(target)) throw new CliError(`${target} already exists: choose a new file name`);
    copyDatabaseFile(source, target);
    const check = integrityCheck(target);
    if (check !== 'ok') throw new CliError(`The copy at ${target} failed its integrity check: ${check}`);
    console.log(`backup written to ${target} (integrity check ok)`);
  },
};
