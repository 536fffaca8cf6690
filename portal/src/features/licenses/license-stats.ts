// Pure license arithmetic for the pages: status, validations per day, history order.
import { lastDays, localDay } from '../../lib/days';
import { formatDateTime } from '../../lib/format';
import { DAY_MS } from '../../lib/from-server';
import type { HourCount, License, ValidationAttempt } from '../../types/api';

export { localDay, windowStart } from '../../lib/days';

export type LicenseStatus = License['status'];

/** Every status, in the order lists and filters show them. */
export const LICENSE_STATUSES: readonly LicenseStatus[] = ['active', 'notStarted', 'grace', 'expired', 'revoked'];

/** Each status's name where it is chosen (filters, the dashboard). */
export const STATUS_NAMES: Record<LicenseStatus, string> = { active: 'Active', notStarted: 'Not started', grace: 'In grace', expired: 'Expired', revoked: 'Revoked' };

type StatusFacts = Pick<License, 'expiresAtEpochMillis'> &
  Partial<Pick<License, 'revokedAtEpochMillis' | 'graceDays' | 'expiryBasis' | 'expiryStartedAtEpochMillis'>>;

/**
 * The lifecycle status at `now`, by the server's rule (a license body's `status`): revoked;
 * else expired once past the expiry and its grace days; grace between the expiry and the end
 * of grace; notStarted while a first-use clock has not started; else active. No expiry never
 * expires.
 */
export function licenseStatus(license: StatusFacts, now: number = Date.now()): LicenseStatus {
  if (license.revokedAtEpochMillis != null) return 'revoked';
  const expiry = license.expiresAtEpochMillis;
  if (expiry !== null) {
    if (now >= expiry + (license.graceDays ?? 0) * DAY_MS) return 'expired';
    if (now >= expiry) return 'grace';
  }
  if (license.expiryBasis === 'firstValidation' && expiry === null && license.expiryStartedAtEpochMillis == null) return 'notStarted';
  return 'active';
}

/** A `status` filter from the address (comma-separated): the known statuses in it, in list order. */
export function parseStatuses(text: string | undefined): LicenseStatus[] {
  const given = new Set((text ?? '').split(',').map((part) => part.trim()));
  return LICENSE_STATUSES.filter((status) => given.has(status));
}

export interface StatusLabel {
  status: LicenseStatus;
  /** What the badge says. */
  text: string;
  /** The whole sentence with its date (the badge's hover text when `text` is short). */
  full: string;
  tone: 'ok' | 'warn' | 'bad' | 'muted';
}

const TONES: Record<LicenseStatus, StatusLabel['tone']> = { active: 'ok', notStarted: 'muted', grace: 'warn', expired: 'bad', revoked: 'bad' };

/**
 * How a license's status reads: "Active", "Trial, ends <date>", "Not started", "In grace
 * until <date>", "Expired", "Revoked". `short` (lists) drops the date from the badge: "Trial",
 * "In grace" (the whole sentence stays in `full`).
 */
export function statusLabel(
  license: StatusFacts & Partial<Pick<License, 'trial'>>,
  { now = Date.now(), short = false }: { now?: number; short?: boolean } = {},
): StatusLabel {
  const status = licenseStatus(license, now);
  const expiry = license.expiresAtEpochMillis;
  let full: string;
  let text: string;
  if (status === 'grace') {
    full = `In grace until ${formatDateTime(expiry! + (license.graceDays ?? 0) * DAY_MS)}`;
    text = short ? 'In grace' : full;
  } else if (status === 'active' && license.trial) {
    full = expiry === null ? 'Trial' : `Trial, ends ${formatDateTime(expiry)}`;
    text = short ? 'Trial' : full;
  } else {
    full = text = STATUS_NAMES[status];
  }
  return { status, text, full, tone: TONES[status] };
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
