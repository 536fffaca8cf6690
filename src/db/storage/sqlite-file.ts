// Operations on a SQLite database file as a whole (the backup and restore commands):
// PostgreSQL has its own tools for these (pg_dump, pg_restore; docs/deploy.md).
import SqliteDatabase from 'better-sqlite3';
import { isBusy } from './errors.js';

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
    if (isBusy(err)) return true;
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

/**
 * Writes a consistent, compact copy of the database at `source` to `target` (VACUUM INTO:
 * one WAL read snapshot, which never blocks writers; SQLite's page-by-page online backup
 * would restart whenever a validation commits, i.e. never finish under load).
 */
export function copyDatabaseFile(source: string, target: string): void {
  const db = new SqliteDatabase(source, { fileMustExist: true });
  try {
    db.pragma('busy_timeout = 5000');
    db.prepare('VACUUM INTO ?').run(target);
  } finally {
    db.close();
  }
}
