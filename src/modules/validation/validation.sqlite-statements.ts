// The validation queries for SQLite as statements prepared once and run synchronously
// inside the batch's transaction (Kysely's driver prepares every query anew, which would
// dominate the validation hot path). History pruning runs the repository's own Kysely
// queries (validation.repository.ts), compiled and prepared here, so the rule is written once.
import type SqliteDatabase from 'better-sqlite3';
import type { Compilable } from 'kysely';
import type { Db } from '../../db/database.js';
import type { AuditEntriesTable, NewValidationAttempt } from '../../db/schema.js';
import { auditWrites } from '../audit/audit.service.js';
import type { OutboundEvent } from '../events/events.js';
import { enqueueQuery } from '../events/outbox.repository.js';
import type { EventGate } from '../events/subscriptions.js';
import { deleteAttemptsOlderThan, oldestKeptAttempt } from './validation.repository.js';
import { hwidRowsQuery, ipRowsQuery, licenseRowsQuery, type LicenseRow } from '../licenses/licenses.repository.js';
import { assembleLicenses, withoutHistory, type LicenseWithoutHistory } from '../licenses/licenses.service.js';
import { SELF_RELEASE_WINDOW_MS } from '../license-settings/license-settings.js';
import type { LicenseLimits } from './validation.facts.js';
import { ATTEMPTS_PER_INSERT, type IdleBinding, type SlotKind, type SlotUsage } from './validation.types.js';
import { clock } from '../../lib/clock.js';

export type Kind = SlotKind;

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
    all<T>(query: Compilable<T>): T[] {
      const { stmt, parameters } = statement(query);
      return stmt.all(parameters) as T[];
    },
    run(query: Compilable): void {
      const { stmt, parameters } = statement(query);
      stmt.run(parameters);
    },
  };
}

/** `db` is the Kysely over `sqlite`: used only to compile queries, never to run them. */
export function prepareValidationStatements(db: Db, sqlite: SqliteDatabase.Database) {
  // The policy settings come with the row, the product's live ones with it: no query more per
  // request. Subqueries, not a JOIN: with the JOIN, SQLite 3.54 took 20 µs a lookup against
  // 2-3 µs (measured on this statement, hit or miss; npm run bench showed it).
  const license = sqlite.prepare<[string], LicenseLimits>(
    `SELECT l.product_id, l.expires_at, l.max_ips, l.max_hwids, l.slot_timeout_minutes, l.revoked_at, l.expiry_basis,
       l.valid_for_days, l.grace_days, l.expiry_started_at, l.features, l.reveal_reasons,
       (SELECT p.features FROM products p WHERE p.id = l.product_id) AS product_features,
       (SELECT p.reveal_reasons FROM products p WHERE p.id = l.product_id) AS product_reveal_reasons,
       -- a license at a tier: its features (no lookup for a license at the base)
       CASE WHEN l.tier IS NULL THEN NULL ELSE (SELECT t.features FROM product_tiers t WHERE t.product_id = l.product_id AND t.code = l.tier) END AS tier_features
     FROM licenses l WHERE l.id = ?`,
  );
  // Starts a first-validation clock only while it is still unset (DECISIONS.md "License policies").
  const startClock = sqlite.prepare<[number, number, number, string]>(
    `UPDATE licenses SET expires_at = ?, expiry_started_at = ?, expiry_set_at = ?, version = version + 1
     WHERE id = ? AND expires_at IS NULL AND expiry_started_at IS NULL AND revoked_at IS NULL`,
  );
  const perKind = (table: string, column: string) => ({
    lastSeen: sqlite.prepare<[string, string], number>(`SELECT last_seen_at FROM ${table} WHERE license_id = ? AND ${column} = ?`).pluck(),
    usage: sqlite.prepare<[string], SlotUsage>(
      `SELECT count(*) AS used, coalesce(max(position) + 1, 0) AS next FROM ${table} WHERE license_id = ?`,
    ),
    bind: sqlite.prepare<[string, string, number, number, number]>(
      `INSERT INTO ${table} (license_id, ${column}, position, first_seen_at, last_seen_at) VALUES (?, ?, ?, ?, ?)`,
    ),
    touch: sqlite.prepare<[number, string, string]>(`UPDATE ${table} SET last_seen_at = ? WHERE license_id = ? AND ${column} = ?`),
    idle: sqlite.prepare<[string, number, number], IdleBinding>(
      `SELECT ${column} AS value, last_seen_at FROM ${table} WHERE license_id = ? AND last_seen_at < ? ORDER BY last_seen_at, position LIMIT ?`,
    ),
    unbind: sqlite.prepare<[string, string]>(`DELETE FROM ${table} WHERE license_id = ? AND ${column} = ?`),
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
      const values = Array.from({ length: rows }, () => '(?, ?, ?, ?, ?, ?, ?)').join(', ');
      statement = sqlite.prepare(`INSERT INTO validation_attempts (license_id, hwid, ip, timestamp, successful, reason, client_version) VALUES ${values}`);
      insertAttempts.set(rows, statement);
    }
    return statement;
  };
  const compiled = compiledRunner(sqlite);

  return {
    license: (id: string): LicenseLimits | undefined => license.get(id),
    /** Starts the license's expiry clock at `now` (expiring at `expiresAt`); false: it had started already. */
    startClock: (id: string, expiresAt: number, now: number): boolean => startClock.run(expiresAt, now, now, id).changes === 1,
    /** The license as the API answers it, without its history, read in the open transaction. */
    licenseSnapshot: (id: string): LicenseWithoutHistory => {
      const filter = { id };
      const [row] = compiled.all(licenseRowsQuery(db, filter, clock.now() - SELF_RELEASE_WINDOW_MS)) as LicenseRow[];
      return withoutHistory(assembleLicenses([row!], compiled.all(ipRowsQuery(db, filter)), compiled.all(hwidRowsQuery(db, filter)), [], 0)[0]!);
    },
    /** When the value was last seen; undefined: not bound. */
    lastSeen: (kind: Kind, licenseId: string, value: string): number | undefined => kinds[kind].lastSeen.get(licenseId, value),
    usage: (kind: Kind, licenseId: string): SlotUsage => kinds[kind].usage.get(licenseId)!,
    bind: (kind: Kind, licenseId: string, value: string, position: number, now: number): void => {
      kinds[kind].bind.run(licenseId, value, position, now, now);
    },
    touch: (kind: Kind, licenseId: string, value: string, now: number): void => {
      kinds[kind].touch.run(now, licenseId, value);
    },
    /** Up to `limit` bindings last seen before `before`, least recently seen first. */
    idle: (kind: Kind, licenseId: string, before: number, limit: number): IdleBinding[] => kinds[kind].idle.all(licenseId, before, limit),
    unbind: (kind: Kind, licenseId: string, value: string): void => {
      kinds[kind].unbind.run(licenseId, value);
    },
    /** The entry, and its event when `gate` says some endpoint may want it. */
    audit: (entry: AuditEntriesTable, gate: EventGate): void => {
      for (const write of auditWrites(db, entry, gate)) compiled.run(write);
    },
    /** Queues the event for the endpoints that subscribe to it. */
    event: (event: OutboundEvent): void => compiled.run(enqueueQuery(db, event)),
    /** Inserts the attempts in the order given (their ids follow that order). */
    recordAttempts: (attempts: readonly NewValidationAttempt[]): void => {
      for (let start = 0; start < attempts.length; start += ATTEMPTS_PER_INSERT.sqlite) {
        const chunk = attempts.slice(start, start + ATTEMPTS_PER_INSERT.sqlite);
        insertStatement(chunk.length).run(chunk.flatMap((a) => [a.license_id, a.hwid, a.ip, a.timestamp, a.successful, a.reason, a.client_version ?? null]));
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
