// Aggregates over licenses and validation attempts, computed in SQL so a dashboard
// never has to load the records themselves, and read from counters or indexes so that
// their cost does not grow with the attempts table.
import { sql } from 'kysely';
import type { Db } from '../../db/database.js';
import { DAY_MS, HOUR_MS } from '../../lib/time.js';
import { LICENSE_STATUSES, type LicenseStatus } from '../license-settings/license-terms.js';

/**
 * Licenses active and expired at `now` (expired: at or past the expiry; null never expires).
 * The expired ones are counted from licenses_expires_at_idx, the total from the table.
 */
export async function countLicensesByStatus(db: Db, now: number): Promise<{ active: number; expired: number }> {
  const [total, expired] = await Promise.all([
    db.selectFrom('licenses').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
    db.selectFrom('licenses').select((eb) => eb.fn.countAll<number>().as('n')).where('expires_at', '<=', now).executeTakeFirstOrThrow(),
  ]);
  return { active: total.n - expired.n, expired: expired.n };
}

/** Licenses in each lifecycle state at `now` (licenseStatus, in SQL: one pass over the table). */
export async function countLicensesByLifecycle(db: Db, now: number): Promise<Record<LicenseStatus, number>> {
  const graceEnd = sql`(expires_at + coalesce(grace_days, 0) * ${sql.lit(DAY_MS)})`;
  const status = sql<LicenseStatus>`CASE
    WHEN revoked_at IS NOT NULL THEN 'revoked'
    WHEN expires_at IS NOT NULL AND ${graceEnd} <= ${sql.lit(now)} THEN 'expired'
    WHEN expires_at IS NOT NULL AND expires_at <= ${sql.lit(now)} THEN 'grace'
    WHEN expiry_basis = 'firstValidation' AND expires_at IS NULL AND expiry_started_at IS NULL THEN 'notStarted'
    ELSE 'active' END`;
  const rows = await db
    .selectFrom('licenses')
    .select((eb) => [status.as('status'), eb.fn.countAll<number | string>().as('n')])
    .groupBy(status)
    .execute();
  const counts = Object.fromEntries(LICENSE_STATUSES.map((s) => [s, 0])) as Record<LicenseStatus, number>;
  for (const row of rows) counts[row.status] = Number(row.n);
  return counts;
}

/**
 * Attempts at or after `since` per hour, oldest first, only hours that have some.
 * The hour is `timestamp / 3600000` with the divisor written into the SQL: an integer
 * column divided by an integer literal truncates on both SQLite and PostgreSQL (a bound
 * parameter would arrive from better-sqlite3 as a REAL and divide exactly).
 * validation_attempts_stats_idx (timestamp, successful) covers it. Stats use it only for
 * the part of an hour between `since` and the next whole hour.
 */
export function attemptsByHourQuery(db: Db, since: number, before = Number.MAX_SAFE_INTEGER) {
  const hour = sql<number>`${sql.ref('timestamp')} / ${sql.lit(HOUR_MS)}`;
  return db
    .selectFrom('validation_attempts')
    .select((eb) => [hour.as('hour'), eb.fn.countAll<number>().as('attempts'), eb.fn.sum<number>('successful').as('successful')])
    .where('timestamp', '>=', since)
    .where('timestamp', '<', before)
    .groupBy(hour)
    .orderBy(hour);
}

/**
 * The whole hours from `fromHour` on, from the counters (an hour's shards summed, however many attempts).
 * A sum of bigint columns is `numeric` on PostgreSQL, which pg returns as a string.
 */
export const countedHoursQuery = (db: Db, fromHour: number) =>
  db
    .selectFrom('validation_counts_by_hour')
    .select((eb) => ['hour', eb.fn.sum<number | string>('attempts').as('attempts'), eb.fn.sum<number | string>('successful').as('successful')])
    .where('hour', '>=', fromHour)
    .groupBy('hour')
    .having((eb) => eb.fn.sum('attempts'), '>', 0)
    .orderBy('hour');

export interface HourRow {
  hour: number;
  attempts: number;
  successful: number;
}

const toHourRow = (r: { hour: number; attempts: number | string; successful: number | string }): HourRow => ({
  hour: r.hour,
  attempts: Number(r.attempts),
  successful: Number(r.successful),
});

/**
 * Attempts at or after `since` per hour. Whole hours come from the counters; when `since`
 * falls inside an hour, that hour's attempts from `since` on are counted from the
 * attempts themselves (at most one hour of them, read from the covering index).
 */
export async function countAttemptsByHour(db: Db, since: number): Promise<HourRow[]> {
  const firstWholeHour = Math.ceil(since / HOUR_MS);
  const [partial, whole] = await Promise.all([
    since % HOUR_MS === 0 ? [] : attemptsByHourQuery(db, since, firstWholeHour * HOUR_MS).execute(),
    countedHoursQuery(db, firstWholeHour).execute(),
  ]);
  return [...partial, ...whole].map(toHourRow).filter((r) => r.attempts > 0);
}
