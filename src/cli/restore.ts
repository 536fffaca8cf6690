// `restore <file>`: replaces the SQLite database with a backup, with the service stopped.
// Refuses while anything has the database open; removes the old -wal/-shm files first
// (an old WAL replayed over the restored file would corrupt it).
import { copyFileSync, existsSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { CliError, oneFileArgument, type Command } from './command.js';
import { integrityCheck, isInUse } from '../db/storage/sqlite-file.js';
import { sqlitePath } from './sqlite-file.js';

export const restoreCommand: Command = {
  usage: 'restore <file>',
  summary: 'replace the SQLite database with a backup (service stopped; PostgreSQL: pg_restore)',
  async run(args, config) {
    const backup = oneFileArgument(args, this.usage);
    const target = sqlitePath(config, 'DATABASE_URL is PostgreSQL: restore with pg_restore, see docs/deploy.md');
    if (!existsSync(backup)) throw new CliError(`No backup file at ${backup}`);
    const check = integrityCheck(backup);
    if (check !== 'ok') throw new CliError(`${backup} failed its integrity check (${check}): not restored`);
    if (existsSync(target) && isInUse(target)) {
      throw new CliError(`${target} is in use (is the service still running?): stop every instance, then restore`);
    }
    mkdirSync(dirname(target), { recursive: true });
    // Copy beside the target, then rename: the target is either the old file or the whole backup.
    const staging = join(dirname(target), `.${basename(target)}.restoring`);
    copyFileSync(backup, staging);
    for (const suffix of ['-wal', '-shm']) rmSync(`${target}${suffix}`, { force: true });
    renameSync(staging, target);
    console.log(`restored ${backup} to ${target}`);
  },
};
