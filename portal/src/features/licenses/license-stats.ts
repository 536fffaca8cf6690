// Pure license arithmetic for the pages: status, validations per day, history order.
import { lastDays, localDay } from '../../lib/days';
import type { HourCount, License, ValidationAttempt } from '../../types/api';

export { localDay, windowStart } from '../../lib/days';

export type LicenseStatus = 'active' | 'expired' | 'revoked';

/** Revoked (an expiry set by a revocation) or expired once the time is at or past the expiry (SPEC.md); no expiry never expires. */
export function licenseStatus(
  license: Pick<License, 'expiresAtEpochMillis'> & Partial<Pick<License, 'revokedAtEpochMillis'>>,
  now: number = Date.now(),
): LicenseStatus {
  if (license.revokedAtEpochMillis != null) return 'revoked';
  return license.expiresAtEpochMillis !== null && now >= license.expiresAtEpochMillis ? 'expired' : 'active';
}

export interface DayCount {
  /** Local calendar day, `YYYY-MM-DD`. */
  day: string;
  successful: number;
  failed: number;
}

/**
 * Hourly validation counts added up per local day over the last `days` days ending
 * today, oldest day first; days without attempts are present with zeros. An hour counts
 * toward the local day it starts in.
 */
export function validationsPerDay(hours: HourCount[], days: number, now: number = Date.now()): DayCount[] {
  const result: DayCount[] = [];
  const index = new Map<string, DayCount>();
  for (const day of lastDays(days, now)) {
    const entry = { day, successful: 0, failed: 0 };
    result.push(entry);
    index.set(day, entry);
  }
  for (const hour of hours) {
    const entry = index.get(localDay(hour.hourEpochMillis));
    if (!entry) continue;
    entry.successful += hour.successful;
    entry.failed += hour.failed;
  }
  return result;
}

/** The history newest first (the API returns it oldest first); the input is not changed. */
export function newestFirst(attempts: ValidationAttempt[]): ValidationAttempt[] {
  return [...attempts].sort((a, b) => b.timestampEpochMillis - a.timestampEpochMillis);
}

/** A license with one bound IP or HWID removed, ready for PUT (version kept for the check). */
export function withoutBinding(license: License, kind: 'ip' | 'hwid', value: string): License {
  return kind === 'ip'
    ? { ...license, usedIps: license.usedIps.filter((ip) => ip !== value) }
    : { ...license, usedHwids: license.usedHwids.filter((hwid) => hwid !== value) };
}
