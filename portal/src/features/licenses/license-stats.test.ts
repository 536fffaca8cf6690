import { describe, expect, it } from 'vitest';
import type { HourCount, License, ValidationAttempt } from '../../types/api';
import { licenseStatus, localDay, newestFirst, validationsPerDay, windowStart, withoutBinding } from './license-stats';

/** Epoch millis of a local date and hour (month is 1-based here). */
const at = (year: number, month: number, day: number, hour = 12, minute = 0) => new Date(year, month - 1, day, hour, minute).getTime();
const attempt = (timestampEpochMillis: number, successful: boolean): ValidationAttempt => ({
  hwid: 'h',
  ip: '127.0.0.1',
  timestampEpochMillis,
  successful,
  reason: successful ? 'VALID' : 'HWID_LIMIT_REACHED',
});

describe('licenseStatus', () => {
  const now = at(2026, 3, 10);
  it('is active without an expiry or before it, expired at and after it', () => {
    expect(licenseStatus({ expiresAtEpochMillis: null }, now)).toBe('active');
    expect(licenseStatus({ expiresAtEpochMillis: now - 1, revokedAtEpochMillis: now - 1 }, now)).toBe('revoked');
    expect(licenseStatus({ expiresAtEpochMillis: null, revokedAtEpochMillis: null }, now)).toBe('active');
    expect(licenseStatus({ expiresAtEpochMillis: now + 1 }, now)).toBe('active');
    expect(licenseStatus({ expiresAtEpochMillis: now }, now)).toBe('expired');
    expect(licenseStatus({ expiresAtEpochMillis: now - 1 }, now)).toBe('expired');
  });
});

describe('validationsPerDay', () => {
  const now = at(2026, 3, 10, 15);
  const hour = (hourEpochMillis: number, successful: number, failed: number): HourCount => ({ hourEpochMillis, successful, failed });

  it('returns every day of the window, oldest first, with zeros where nothing happened', () => {
    const days = validationsPerDay([], 3, now);
    expect(days).toEqual([
      { day: '2026-03-08', successful: 0, failed: 0 },
      { day: '2026-03-09', successful: 0, failed: 0 },
      { day: '2026-03-10', successful: 0, failed: 0 },
    ]);
  });

  it('adds up the hours of each local day, the first and last hour of a day included', () => {
    const hours = [
      hour(at(2026, 3, 9, 8, 0), 2, 0),
      hour(at(2026, 3, 9, 23, 0), 1, 4),
      hour(at(2026, 3, 10, 0, 0), 3, 1),
      hour(at(2026, 3, 10, 9, 0), 1, 0),
    ];
    expect(validationsPerDay(hours, 2, now)).toEqual([
      { day: '2026-03-09', successful: 3, failed: 4 },
      { day: '2026-03-10', successful: 4, failed: 1 },
    ]);
  });

  it('ignores hours outside the window', () => {
    const hours = [hour(at(2026, 3, 3, 23), 5, 5), hour(at(2026, 3, 11, 0), 1, 1), hour(at(2026, 3, 4, 0), 1, 2)];
    const days = validationsPerDay(hours, 7, now);
    expect(days[0]).toEqual({ day: '2026-03-04', successful: 1, failed: 2 });
    expect(days.slice(1).every((d) => d.successful === 0 && d.failed === 0)).toBe(true);
  });

  it('spans month and year boundaries', () => {
    const days = validationsPerDay([], 3, at(2026, 1, 1));
    expect(days.map((d) => d.day)).toEqual(['2025-12-30', '2025-12-31', '2026-01-01']);
  });

  it('asks for the window from local midnight of its first day', () => {
    expect(windowStart(14, now)).toBe(at(2026, 2, 25, 0));
    expect(windowStart(1, now)).toBe(at(2026, 3, 10, 0));
    expect(windowStart(3, at(2026, 1, 1, 0, 30))).toBe(at(2025, 12, 30, 0));
  });

  it('formats local days with zero padding', () => {
    expect(localDay(at(2026, 2, 5, 23, 30))).toBe('2026-02-05');
  });
});

describe('history and bindings', () => {
  const license: License = {
    id: 'K',
    productId: 'p',
    customerId: 'c',
    expiresAtEpochMillis: null,
    maxIps: 2,
    maxHwids: 2,
    usedIps: ['10.0.0.1', '10.0.0.2'],
    usedHwids: ['machine-1', 'machine-2'],
    slotTimeoutMinutes: null,
    selfReleaseLimit: null,
    sharingAlert: null,
    sharingSuspectedAtEpochMillis: null,
    bindings: { ips: [], hwids: [] },
    selfReleasesUsed: 0,
    selfReleasesLeft: null,
    revokedAtEpochMillis: null,
    revokedReason: null,
    expiryBasis: 'fixed',
    validForDays: null,
    expiryStartedAtEpochMillis: null,
    graceDays: null,
    features: {},
    effectiveFeatures: {},
    tier: null,
    trial: false,
    status: 'active',
    revealReasons: null,
    version: 4,
    validationAttempts: [attempt(1000, true), attempt(3000, false), attempt(2000, true)],
    createdAtEpochMillis: 0,
  };

  it('orders the history newest first without changing the license', () => {
    expect(newestFirst(license.validationAttempts).map((a) => a.timestampEpochMillis)).toEqual([3000, 2000, 1000]);
    expect(license.validationAttempts.map((a) => a.timestampEpochMillis)).toEqual([1000, 3000, 2000]);
  });

  it('removes exactly one binding and keeps the version for the PUT', () => {
    const unbound = withoutBinding(license, 'hwid', 'machine-1');
    expect(unbound.usedHwids).toEqual(['machine-2']);
    expect(unbound.usedIps).toEqual(license.usedIps);
    expect(unbound.version).toBe(4);
    expect(withoutBinding(license, 'ip', '10.0.0.2').usedIps).toEqual(['10.0.0.1']);
    expect(license.usedHwids).toHaveLength(2);
  });
});
