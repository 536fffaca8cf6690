// The validation queries for SQLite as statements prepared once and run synchronously
// inside the batch's transaction (Kysely's driver prepares every query anew, which would
// dominate the validation hot path). History pruning runs the repository's own Kysely
// queries (validation.repository.ts), compiled and prepared here, so the rule is written once.
import type SqliteDatabase from 'better-sqlite3';
import type { Compilable } from 'kysely';
import type { Db } from '../../db/database.js';
import type { NewValidationAttempt } from '../../db/schema.js';
import { deleteAttemptsOlderThan, oldestKeptAttempt } from './validation.repository.js';
import { ATTEMPTS_PER_INSERT, type LicenseLimits, type SlotUsage } from './validation.types.js';

export type Kind = 'ip' | 'hwid';

/** Runs Kysely queries synchronously on the raw handle, each SQL text prepared once. */
function compiledRunner(sqlite: SqliteDatabase.Database) {
  const prepared = new Map<string, SqliteDatabase.Statement<unknown[]>>();
  const statement = (query: Compilable) => {
    const { sql, parameters } = query.compile();
    let stmt = prepared.get(sql);
    if (!stmt) prepared.set(sql, (stmt = sqlite.prepare(sql)));
    return { stmt, parameters: parameters as unknown[] };
  };
  return {
    get<T>(query: Compilable<T>): T | undefined {
      const { stmt, parameters } = statement(query);
      return stmt.get(parameters) as T | undefined;
    },
    run(query: Compilable): void {
      const { stmt, parameters } = statement(query);
      stmt.run(parameters);
    },
  };
}

/** `db` is the Kysely over `sqlite`: used only to compile queries, never to run them. */
export function prepareValidationStatements(db: Db, sqlite: SqliteDatabase.Database) {
  const license = sqlite.prepare<[string], LicenseLimits>(
    'SELECT product_id, expires_at, max_ips, max_hwids FROM licenses WHERE id = ?',
  );
  const perKind = (table: string, column: string) => ({
    isBound: sqlite.prepare<[string, string], 1>(`SELECT 1 FROM ${table} WHERE license_id = ? AND ${column} = ?`).pluck(),
    usage: sqlite.prepare<[string], SlotUsage>(
      `SELECT count(*) AS used, coalesce(max(position) + 1, 0) AS next FROM ${table} WHERE license_id = ?`,
    ),
    bind: sqlite.prepare<[string, string, number]>(`INSERT INTO ${table} (license_id, ${column}, position) VALUES (?, ?, ?)`),
  });
  const kinds: Record<Kind, ReturnType<typeof perKind>> = {
    ip: perKind('license_ips', 'ip'),
    hwid: perKind('license_hwids', 'hwid'),
  };
  // Attempts go in with one multi-row INSERT per batch (up to ATTEMPTS_PER_INSERT.sqlite rows):
  // a statement run costs about as much as the row it inserts. One statement per row count.
  const insertAttempts = new Map<number, SqliteDatabase.Statement<unknown[]>>();
  const insertStatement = (rows: number) => {
    let statement = insertAttempts.get(rows);
    if (!statement) {
      const values = Array.from({ length: rows }, () => '(?, ?, ?, ?, ?, ?)').join(', ');
      statement = sqlite.prepare(`INSERT INTO validation_attempts (license_id, hwid, ip, timestamp, successful, reason) VALUES ${values}`);
      insertAttempts.set(rows, statement);
    }
    return statement;
  };
  const compiled = compiledRunner(sqlite);

  return {
    license: (id: string): LicenseLimits | undefined => license.get(id),
    isBound: (kind: Kind, licenseId: string, value: string): boolean => kinds[kind].isBound.get(licenseId, value) !== undefined,
    usage: (kind: Kind, licenseId: string): SlotUsage => kinds[kind].usage.get(licenseId)!,
    bind: (kind: Kind, licenseId: string, value: string, position: number): void => {
      kinds[kind].bind.run(licenseId, value, position);
    },
    /** Inserts the attempts in the order given (their ids follow that order). */
    recordAttempts: (attempts: readonly NewValidationAttempt[]): void => {
      for (let start = 0; start < attempts.length; start += ATTEMPTS_PER_INSERT.sqlite) {
        const chunk = attempts.slice(start, start + ATTEMPTS_PER_INSERT.sqlite);
        insertStatement(chunk.length).run(chunk.flatMap((a) => [a.license_id, a.hwid, a.ip, a.timestamp, a.successful, a.reason]));
      }
    },
    /** Deletes all but the `keep` most recent attempts of the license. */
    prune: (licenseId: string, keep: number): void => {
      const oldestKept = compiled.get(oldestKeptAttempt(db, licenseId, keep));
      if (oldestKept) compiled.run(deleteAttemptsOlderThan(db, licenseId, oldestKept));
    },
  };
}

export type ValidationStatements = ReturnType<typeof prepareValidationStatements>;
