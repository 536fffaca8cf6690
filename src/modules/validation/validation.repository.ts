// The validation queries of the PostgreSQL path (SQLite prepares its own, and takes the
// history-pruning queries below, in validation.sqlite-statements.ts). A validation that may
// bind locks the license row (FOR NO KEY UPDATE), so those of one license, from any
// instance, run one after another. NO KEY: the lock does not hold up the attempts of
// others, whose statements only need the row to stay: on PostgreSQL attempts have no
// foreign key (migration 2026_12_01_0100); every statement that inserts them holds the
// license row's key-share lock (or the row lock above) and skips a license that is gone,
// and a license delete, which locks the row first, removes its attempts itself.
import type { Db } from '../../db/database.js';
import { executePrepared } from '../../db/prepared-statements.js';
import { sql } from 'kysely';
import type { AuditEntriesTable, NewValidationAttempt } from '../../db/schema.js';
import type { LicenseLimits } from './validation.facts.js';
import type { IdleBinding, SlotKind } from './validation.types.js';

const TABLES = {
  ip: { table: 'license_ips', column: 'ip' },
  hwid: { table: 'license_hwids', column: 'hwid' },
} as const;

/** `last_seen_at` of the value bound to the license (NULL when not bound), as a subquery. */
const lastSeenOf = (kind: SlotKind, id: string, value: string) =>
  sql<number | null>`(SELECT last_seen_at FROM ${sql.table(TABLES[kind].table)} WHERE license_id = ${id} AND ${sql.ref(TABLES[kind].column)} = ${value})`;

/** What one lock-free read asks: a license and the IP and HWID presented. */
export interface BindingQuery {
  licenseId: string;
  ip: string;
  hwid: string;
}

export interface LicenseAndBindings extends LicenseLimits {
  version: number;
  ip_last_seen: number | null;
  hwid_last_seen: number | null;
  ips_used: number;
  hwids_used: number;
}

/**
 * readLicenseAndBindings for many validations in one statement and one round trip (the
 * PostgreSQL engine batches concurrent reads); the answer is in the order asked, undefined
 * for an unknown license.
 */
export async function readManyLicensesAndBindings(db: Db, queries: readonly BindingQuery[]): Promise<(LicenseAndBindings | undefined)[]> {
  const { rows } = await executePrepared(db, sql<LicenseAndBindings & { i: string }>`
    SELECT r.i, l.version, ${LICENSE_COLUMNS},
      (SELECT last_seen_at FROM license_ips WHERE license_id = r.id AND ip = r.ip) AS ip_last_seen,
      (SELECT last_seen_at FROM license_hwids WHERE license_id = r.id AND hwid = r.hwid) AS hwid_last_seen,
      (SELECT count(*) FROM license_ips WHERE license_id = r.id) AS ips_used,
      (SELECT count(*) FROM license_hwids WHERE license_id = r.id) AS hwids_used
    FROM unnest(${queries.map((q) => q.licenseId)}::text[], ${queries.map((q) => q.ip)}::text[], ${queries.map((q) => q.hwid)}::text[])
      WITH ORDINALITY AS r(id, ip, hwid, i)
    JOIN licenses l ON l.id = r.id
    JOIN products p ON p.id = l.product_id`);
  const answers: (LicenseAndBindings | undefined)[] = queries.map(() => undefined);
  for (const row of rows) answers[Number(row.i) - 1] = row;
  return answers;
}

/** The license row as validation reads it (`l`), with its product's live policy settings (`p`). */
const LICENSE_COLUMNS = sql`l.product_id, l.expires_at, l.max_ips, l.max_hwids, l.slot_timeout_minutes, l.revoked_at, l.expiry_basis,
  l.valid_for_days, l.grace_days, l.expiry_started_at, l.features, l.reveal_reasons,
  p.features AS product_features, p.reveal_reasons AS product_reveal_reasons,
  CASE WHEN l.tier IS NULL THEN NULL ELSE (SELECT t.features FROM product_tiers t WHERE t.product_id = l.product_id AND t.code = l.tier) END AS tier_features`;

/** Locks the license row (not the product's) and reads it. */
export async function lockLicense(trx: Db, id: string): Promise<LicenseLimits | undefined> {
  const { rows } = await sql<LicenseLimits>`
    SELECT ${LICENSE_COLUMNS} FROM licenses l JOIN products p ON p.id = l.product_id
    WHERE l.id = ${id} FOR NO KEY UPDATE OF l`.execute(trx);
  return rows[0];
}

/** Starts a first-validation clock while it is still unset; false: it had started. */
export async function startClock(trx: Db, id: string, expiresAt: number, now: number): Promise<boolean> {
  const result = await sql`
    UPDATE licenses SET expires_at = ${expiresAt}, expiry_started_at = ${now}, expiry_set_at = ${now}, version = version + 1
    WHERE id = ${id} AND expires_at IS NULL AND expiry_started_at IS NULL AND revoked_at IS NULL`.execute(trx);
  return Number(result.numAffectedRows ?? 0) === 1;
}

export const bind = (trx: Db, kind: SlotKind, licenseId: string, value: string, position: number, now: number) =>
  sql`INSERT INTO ${sql.table(TABLES[kind].table)} (license_id, ${sql.ref(TABLES[kind].column)}, position, first_seen_at, last_seen_at)
      VALUES (${licenseId}, ${value}, ${position}, ${now}, ${now})`.execute(trx);

/** Records that a successful validation presented the bound value. */
export const touch = (db: Db, kind: SlotKind, licenseId: string, value: string, now: number) =>
  sql`UPDATE ${sql.table(TABLES[kind].table)} SET last_seen_at = ${now}
      WHERE license_id = ${licenseId} AND ${sql.ref(TABLES[kind].column)} = ${value} AND last_seen_at < ${now}`.execute(db);

/** One kind of slot as a locked validation sees it, read in one round trip. */
export interface SlotLook {
  /** undefined: the value is not bound */
  lastSeen: number | undefined;
  used: number;
  next: number;
  /** Bindings last seen before the `idleBefore` asked for, least recently seen first (none without it). */
  idle: IdleBinding[];
}

/** Whether the value is bound (and when last seen), how many are, and which are idle: one statement. */
export async function lookAtSlot(trx: Db, kind: SlotKind, licenseId: string, value: string, idleBefore: number | null): Promise<SlotLook> {
  const t = sql.table(TABLES[kind].table);
  const column = sql.ref(TABLES[kind].column);
  const { rows } = await sql<{ last_seen: number | null; used: number; last: number | null; idle: IdleBinding[] | null }>`
    SELECT
      (SELECT last_seen_at FROM ${t} WHERE license_id = ${licenseId} AND ${column} = ${value}) AS last_seen,
      (SELECT count(*) FROM ${t} WHERE license_id = ${licenseId}) AS used,
      (SELECT max(position) FROM ${t} WHERE license_id = ${licenseId}) AS last,
      (SELECT json_agg(i ORDER BY i.last_seen_at, i.position) FROM (
        SELECT ${column} AS value, last_seen_at, position FROM ${t}
        WHERE license_id = ${licenseId} AND ${idleBefore !== null} AND last_seen_at < ${idleBefore ?? 0}
        ORDER BY last_seen_at, position LIMIT ${MAX_IDLE_LOOKED_AT}) i) AS idle`.execute(trx);
  const row = rows[0]!;
  return {
    lastSeen: row.last_seen ?? undefined,
    used: row.used,
    next: row.last === null ? 0 : row.last + 1,
    idle: row.idle ?? [],
  };
}

/** Idle bindings a look reads at most: far beyond any slot limit's shortfall (a PUT lists up to 10,000). */
const MAX_IDLE_LOOKED_AT = 10_000;

/**
 * Frees idle bindings and writes their audit entries in one statement (a data-modifying
 * CTE): under the license's lock, releasing costs the validation one round trip.
 */
export async function releaseWithAudit(trx: Db, kind: SlotKind, licenseId: string, values: readonly string[], audit: readonly AuditEntriesTable[]): Promise<void> {
  if (values.length === 0) return;
  const entries = audit.map((e) => sql`(${e.id}, ${e.name}, ${e.performed_by}, ${e.timestamp}, ${e.data})`);
  await sql`
    WITH freed AS (
      DELETE FROM ${sql.table(TABLES[kind].table)} WHERE license_id = ${licenseId} AND ${sql.ref(TABLES[kind].column)} IN (${sql.join(values)})
    )
    INSERT INTO audit_entries (id, name, performed_by, timestamp, data) VALUES ${sql.join(entries)}`.execute(trx);
}

/** Unbinds the values; returns those that were bound, with when they were last seen. */
export async function unbind(trx: Db, kind: SlotKind, licenseId: string, values: readonly string[]): Promise<IdleBinding[]> {
  if (values.length === 0) return [];
  const { rows } = await sql<IdleBinding>`
    DELETE FROM ${sql.table(TABLES[kind].table)}
    WHERE license_id = ${licenseId} AND ${sql.ref(TABLES[kind].column)} IN (${sql.join(values)})
    RETURNING ${sql.ref(TABLES[kind].column)} AS value, last_seen_at`.execute(trx);
  return rows;
}

/**
 * Inserts the attempts, in order, with one statement (at most ATTEMPTS_PER_INSERT.postgres
 * rows): one column array per parameter, so the text is the same for any batch and is
 * prepared once per connection. Only under the license's row lock (validateLocked), which
 * keeps the license from being deleted meanwhile; elsewhere insertAttemptsOfLiveLicenses.
 */
export const insertAttempts = (db: Db, rows: readonly NewValidationAttempt[]) =>
  executePrepared(
    db,
    sql`INSERT INTO validation_attempts (license_id, hwid, ip, "timestamp", successful, reason, client_version)
      SELECT * FROM unnest(${rows.map((r) => r.license_id)}::text[], ${rows.map((r) => r.hwid)}::text[], ${rows.map((r) => r.ip)}::text[],
        ${rows.map((r) => r.timestamp)}::bigint[], ${rows.map((r) => r.successful)}::integer[], ${rows.map((r) => r.reason)}::text[],
        ${rows.map((r) => r.client_version ?? null)}::text[])`,
  );

/**
 * Inserts, in order, the attempts whose license still exists, in one statement that holds
 * each distinct license's key-share lock until its commit (a delete of it waits for that,
 * and one already committed leaves its attempts out); answers the licenses that were there.
 */
export async function insertAttemptsOfLiveLicenses(db: Db, rows: readonly NewValidationAttempt[]): Promise<Set<string>> {
  const { rows: live } = await executePrepared(
    db,
    sql<{ id: string }>`
      WITH x AS (
        SELECT * FROM unnest(${rows.map((r) => r.license_id)}::text[], ${rows.map((r) => r.hwid)}::text[], ${rows.map((r) => r.ip)}::text[],
                             ${rows.map((r) => r.timestamp)}::bigint[], ${rows.map((r) => r.successful)}::integer[], ${rows.map((r) => r.reason)}::text[],
                             ${rows.map((r) => r.client_version ?? null)}::text[])
          WITH ORDINALITY AS x(license_id, hwid, ip, ts, successful, reason, client_version, i)),
      live AS (SELECT l.id FROM licenses l WHERE l.id IN (SELECT license_id FROM x) FOR KEY SHARE OF l),
      recorded AS (
        INSERT INTO validation_attempts (license_id, hwid, ip, "timestamp", successful, reason, client_version)
        SELECT x.license_id, x.hwid, x.ip, x.ts, x.successful, x.reason, x.client_version FROM x JOIN live ON live.id = x.license_id ORDER BY x.i)
      SELECT id FROM live`,
  );
  return new Set(live.map((r) => r.id));
}

/** A valid attempt to record only if the license is still at `version` with the IP and HWID bound. */
export interface GuardedAttempt {
  licenseId: string;
  ip: string;
  hwid: string;
  version: number;
  timestamp: number;
  /** the version the client named (absent or null: none) */
  clientVersion?: string | null;
}

/** A recorded guarded attempt's license, IP, HWID and version, with its product's live policy settings (features and reveal are not versioned with the license). */
export interface GuardedRecorded {
  license_id: string;
  ip: string;
  hwid: string;
  version: number;
  product_features: string | null;
  product_reveal_reasons: number;
  tier_features: string | null;
}

/**
 * Inserts, in order, the VALID attempts whose license is still at the version they were
 * decided from and still has their IP and HWID bound, in one statement (its snapshot is
 * the check). The check runs once per distinct license + IP + HWID + version in the batch,
 * not per attempt (a busy license's batch is mostly one key), and answers those that
 * passed, with the product's current features and reveal setting (same snapshot). It holds
 * each license's key-share lock until its commit, so a delete of the license waits for it;
 * a license deleted first fails the check.
 */
export async function insertAttemptsIfStillBound(db: Db, attempts: readonly GuardedAttempt[]): Promise<GuardedRecorded[]> {
  const { rows } = await executePrepared(
    db,
    sql<GuardedRecorded>`
      WITH x AS (
        SELECT * FROM unnest(${attempts.map((a) => a.licenseId)}::text[], ${attempts.map((a) => a.ip)}::text[], ${attempts.map((a) => a.hwid)}::text[],
                             ${attempts.map((a) => a.version)}::integer[], ${attempts.map((a) => a.timestamp)}::bigint[],
                             ${attempts.map((a) => a.clientVersion ?? null)}::text[])
          WITH ORDINALITY AS x(id, ip, hwid, version, ts, client_version, i)),
      ok AS (
        SELECT k.id, k.ip, k.hwid, k.version, p.features, p.reveal_reasons,
          CASE WHEN l.tier IS NULL THEN NULL ELSE (SELECT t.features FROM product_tiers t WHERE t.product_id = l.product_id AND t.code = l.tier) END AS tier_features
        FROM (SELECT DISTINCT id, ip, hwid, version FROM x) k
        JOIN licenses l ON l.id = k.id AND l.version = k.version
        JOIN products p ON p.id = l.product_id
        WHERE EXISTS (SELECT 1 FROM license_ips b WHERE b.license_id = k.id AND b.ip = k.ip)
          AND EXISTS (SELECT 1 FROM license_hwids b WHERE b.license_id = k.id AND b.hwid = k.hwid)
        FOR KEY SHARE OF l),
      recorded AS (
        INSERT INTO validation_attempts (license_id, hwid, ip, "timestamp", successful, reason, client_version)
        SELECT x.id, x.hwid, x.ip, x.ts, 1, 'VALID', x.client_version FROM x JOIN ok USING (id, ip, hwid, version) ORDER BY x.i)
      SELECT id AS license_id, ip, hwid, version, features AS product_features, reveal_reasons AS product_reveal_reasons, tier_features FROM ok`,
  );
  return rows;
}

/**
 * The history rule: a license keeps its `keep` most recent attempts (newest by timestamp,
 * then id). This is the oldest one kept, if it has more (SQLite; PostgreSQL: pruneAttempts).
 */
export const oldestKeptAttempt = (db: Db, licenseId: string, keep: number) =>
  db
    .selectFrom('validation_attempts')
    .select(['timestamp', 'id'])
    .where('license_id', '=', licenseId)
    .orderBy('timestamp', 'desc')
    .orderBy('id', 'desc')
    .limit(1)
    .offset(keep - 1);

/** Deletes the license's attempts older than `oldestKept`. */
export const deleteAttemptsOlderThan = (db: Db, licenseId: string, oldestKept: { timestamp: number; id: number }) =>
  db
    .deleteFrom('validation_attempts')
    .where('license_id', '=', licenseId)
    .where((eb) =>
      eb.or([
        eb('timestamp', '<', oldestKept.timestamp),
        eb.and([eb('timestamp', '=', oldestKept.timestamp), eb('id', '<', oldestKept.id)]),
      ]),
    );

/**
 * Deletes all but the `keep` most recent attempts of the license (PostgreSQL), in one
 * statement walking validation_attempts_license_idx from the newest end. The planner is
 * told not to use a bitmap or a sequential scan here: for a license holding most of the
 * table (one busy license) it chose a bitmap scan that re-read every pruned attempt not yet
 * vacuumed and sorted the rest, 13 ms a prune, where the index walk takes 0.3 ms and marks
 * the dead entries it passes so the next walk skips them (docs/scale.md).
 */
export async function pruneAttempts(db: Db, licenseId: string, keep: number): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await sql`SELECT set_config('enable_bitmapscan', 'off', true), set_config('enable_seqscan', 'off', true)`.execute(trx);
    await sql`
      DELETE FROM validation_attempts
      WHERE license_id = ${licenseId} AND ("timestamp", id) < (
        SELECT "timestamp", id FROM validation_attempts WHERE license_id = ${licenseId}
        ORDER BY "timestamp" DESC, id DESC LIMIT 1 OFFSET ${keep - 1})`.execute(trx);
  });
}
