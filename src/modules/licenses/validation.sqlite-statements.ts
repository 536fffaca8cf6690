// The validation queries for SQLite as statements prepared once (Kysely's driver
// prepares every query anew, which would dominate the validation hot path).
import type SqliteDatabase from 'better-sqlite3';

export interface LicenseLimits {
  product_id: string;
  expires_at: number | null;
  max_ips: number | null;
  max_hwids: number | null;
}

export interface SlotUsage {
  used: number;
  /** position for the next binding */
  next: number;
}

export interface AttemptRow {
  licenseId: string;
  hwid: string;
  ip: string;
  timestamp: number;
  successful: 0 | 1;
  reason: string;
}

export type Kind = 'ip' | 'hwid';

/** 64 rows x 6 values stays far below SQLite's limit on bound parameters. */
const ATTEMPTS_PER_INSERT = 64;

export function prepareValidationStatements(sqlite: SqliteDatabase.Database) {
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
  // Attempts go in with one multi-row INSERT per batch (up to ATTEMPTS_PER_INSERT rows):
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
  // The oldest attempt to keep: the `keep`-th newest (index license_id, timestamp, id).
  const cutoff = sqlite.prepare<[string, number], { timestamp: number; id: number }>(
    'SELECT timestamp, id FROM validation_attempts WHERE license_id = ? ORDER BY timestamp DESC, id DESC LIMIT 1 OFFSET ?',
  );
  const deleteOlder = sqlite.prepare<[string, number, number, number]>(
    'DELETE FROM validation_attempts WHERE license_id = ? AND (timestamp < ? OR (timestamp = ? AND id < ?))',
  );

  return {
    license: (id: string): LicenseLimits | undefined => license.get(id),
    isBound: (kind: Kind, licenseId: string, value: string): boolean => kinds[kind].isBound.get(licenseId, value) !== undefined,
    usage: (kind: Kind, licenseId: string): SlotUsage => kinds[kind].usage.get(licenseId)!,
    bind: (kind: Kind, licenseId: string, value: string, position: number): void => {
      kinds[kind].bind.run(licenseId, value, position);
    },
    /** Inserts the attempts in the order given (their ids follow that order). */
    recordAttempts: (attempts: readonly AttemptRow[]): void => {
      for (let start = 0; start < attempts.length; start += ATTEMPTS_PER_INSERT) {
        const chunk = attempts.slice(start, start + ATTEMPTS_PER_INSERT);
        insertStatement(chunk.length).run(chunk.flatMap((a) => [a.licenseId, a.hwid, a.ip, a.timestamp, a.successful, a.reason]));
      }
    },
    /** Deletes all but the `keep` most recent attempts of the license. */
    prune: (licenseId: string, keep: number): void => {
      const oldestKept = cutoff.get(licenseId, keep - 1);
      if (oldestKept) deleteOlder.run(licenseId, oldestKept.timestamp, oldestKept.timestamp, oldestKept.id);
    },
  };
}

export type ValidationStatements = ReturnType<typeof prepareValidationStatements>;
