// Aggregates over licenses and validation attempts, computed in SQL so a dashboard
// never has to load the records themselves.
import { sql } from 'kysely';
import type { Db } from '../../db/database.js';

export const HOUR_MS = 3_600_000;

/** Licenses active and expired at `now` (expired: at or past the expiry; null never expires). */
export async function countLicensesByStatus(db: Db, now: number): Promise<{ active: number; expired: number }> {
  const row = await db
    .selectFrom('licenses')
    .select((eb) => [
      eb.fn.countAll<number>().as('total'),
      eb.fn.count<number>('expires_at').filterWhere('expires_at', '<=', now).as('expired'),
    ])
    .executeTakeFirstOrThrow();
  const expired = Number(row.expired);
  return { active: Number(row.total) - expired, expired };
}

/**
 * Attempts at or after `since` per hour, oldest first, only hours that have some.
 * The hour is `timestamp / 3600000` with the divisor written into the SQL: an integer
 * column divided by an integer literal truncates on both SQLite and PostgreSQL (a bound
 * parameter would arrive from better-sqlite3 as a REAL and divide exactly).
 * validation_attempts_stats_idx (timestamp, successful) covers it.
 */
export function attemptsByHourQuery(db: Db, since: number) {
  const hour = sql<number>`${sql.ref('timestamp')} / ${sql.lit(HOUR_MS)}`;
  return db
    .selectFrom('validation_attempts')
    .select((eb) => [hour.as('hour'), eb.fn.countAll<number>().as('attempts'), eb.fn.sum<number>('successful').as('successful')])
    .where('timestamp', '>=', since)
    .groupBy(hour)
    .orderBy(hour);
}

export async function countAttemptsByHour(db: Db, since: number) {
  const rows = await attemptsByHourQuery(db, since).execute();
  return rows.map((r) => ({ hour: Number(r.hour), attempts: Number(r.attempts), successful: Number(r.successful) }));
}
