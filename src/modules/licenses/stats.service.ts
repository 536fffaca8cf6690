// Dashboard figures: licenses by status and validation attempts per hour, all counted
// by the database. Hours (not days) because only the browser knows its local day.
import type { Db } from '../../db/database.js';
import { badRequest } from '../../http/errors.js';
import * as repo from './stats.repository.js';
import { DEFAULT_STATS_WINDOW_DAYS, MAX_STATS_WINDOW_DAYS, type LicenseStats, type LicenseStatsQuery } from './stats.schemas.js';
import { DAY_MS, HOUR_MS } from '../../lib/time.js';
import { clock } from '../../lib/clock.js';

/** `since` as given, or the default window; 400 when it reaches too far back or lies ahead. */
function windowStart(since: number | undefined, now: number): number {
  if (since === undefined) return now - DEFAULT_STATS_WINDOW_DAYS * DAY_MS;
  if (since < now - MAX_STATS_WINDOW_DAYS * DAY_MS) throw badRequest(`since must be at most ${MAX_STATS_WINDOW_DAYS} days ago`);
  if (since > now) throw badRequest('since must not be in the future');
  return since;
}

export async function getLicenseStats(db: Db, query: LicenseStatsQuery, now: number = clock.now()): Promise<LicenseStats> {
  const since = windowStart(query.since, now);
  const [status, byStatus, hours] = await Promise.all([
    repo.countLicensesByStatus(db, now),
    repo.countLicensesByLifecycle(db, now),
    repo.countAttemptsByHour(db, since),
  ]);
  return {
    ...status,
    byStatus,
    validationsByHour: hours.map((h) => ({
      hourEpochMillis: h.hour * HOUR_MS,
      successful: h.successful,
      failed: h.attempts - h.successful,
    })),
  };
}
