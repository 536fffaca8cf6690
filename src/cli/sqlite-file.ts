// The SQLite file behind DATABASE_URL, and whether a running service has it open.
import SqliteDatabase from 'better-sqlite3';
import type { Config } from '../config.js';
import { CliError } from './command.js';

/** The file path of a `sqlite:<path>` URL; PostgreSQL is answered with `postgresAdvice`. */
export function sqlitePath(config: Config, postgresAdvice: string): string {
  if (!config.databaseUrl.startsWith('sqlite:')) throw new CliError(postgresAdvice);
  const path = config.databaseUrl.slice('sqlite:'.length);
  if (path === ':memory:') throw new CliError('DATABASE_URL is an in-memory database: nothing to back up or restore');
  return path;
}

/**
 * True when another connection (a running service, a CLI command) has the database open.
 * In WAL mode every connection holds a shared lock on the file while it is open; an
 * exclusive-mode transaction that does not wait (timeout 0) succeeds only without them.
 */
export function isInUse(path: string): boolean {
  const probe = new SqliteDatabase(path, { fileMustExist: true, timeout: 0 });
  try {
    probe.pragma('locking_mode = EXCLUSIVE');
    probe.exec('BEGIN EXCLUSIVE');
    probe.exec('COMMIT');
    return false;
  } catch (err) {
    if ((err as { code?: string }).code?.startsWith('SQLITE_BUSY')) return true;
    throw err;
  } finally {
    probe.close();
  }
}

/** `PRAGMA integrity_check` of a database file: 'ok' or SQLite's list of problems. */
export function integrityCheck(path: string): string {
  const db = new SqliteDatabase(path, { readonly: true, fileMustExist: true });
  try {
    return (db.pragma('integrity_check') as { integrity_check: string }[]).map((r) => r.integrity_check).join('; ');
  } finally {
    db.close();
  }
}
