import { describe, expect, it } from 'vitest';
import type { License, ValidationAttempt } from '../../types/api';
import { countByStatus, licenseStatus, localDay, newestFirst, validationsPerDay, withoutBinding } from './license-stats';

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
    expect(licenseStatus({ expiresAtEpochMillis: now + 1 }, now)).toBe('active');
    expect(licenseStatus({ expiresAtEpochMillis: now }, now)).toBe('expired');
    expect(licenseStatus({ expiresAtEpochMillis: now - 1 }, now)).toBe('expired');
  });

  it('counts active and expired licenses', () => {
    const licenses = [{ expiresAtEpochMillis: null }, { expiresAtEpochMillis: now - 1 }, { expiresAtEpochMillis: now + 1000 }];
    expect(countByStatus(licenses, now)).toEqual({ active: 2, expired: 1 });
    expect(countByStatus([], now)).toEqual({ active: 0, expired: 0 });
  });
});

describe('validationsPerDay', () => {
  const now = at(2026, 3, 10, 15);

  it('returns every day of the window, oldest first, with zeros where nothing happened', () => {
    const days = validationsPerDay([], 3, now);
    expect(days).toEqual([
      { day: '2026-03-08', successful: 0, failed: 0 },
      { day: '2026-03-09', successful: 0, failed: 0 },
      { day: '2026-03-10', successful: 0, failed: 0 },
    ]);
  });

  it('counts successful and failed attempts of all licenses per local day', () => {
    const licenses = [
      { validationAttempts: [attempt(at(2026, 3, 10, 0, 1), true), attempt(at(2026, 3, 10, 23, 59), false)] },
      { validationAttempts: [attempt(at(2026, 3, 9, 8), true), attempt(at(2026, 3, 9, 9), true), attempt(at(2026, 3, 10, 9), true)] },
    ];
    expect(validationsPerDay(licenses, 2, now)).toEqual([
      { day: '2026-03-09', successful: 2, failed: 0 },
      { day: '2026-03-10', successful: 2, failed: 1 },
    ]);
  });

  it('ignores attempts outside the window', () => {
    const licenses = [{ validationAttempts: [attempt(at(2026, 3, 1), true), attempt(at(2026, 3, 11), false)] }];
    expect(validationsPerDay(licenses, 7, now).every((d) => d.successful === 0 && d.failed === 0)).toBe(true);
  });

  it('spans month and year boundaries', () => {
    const days = validationsPerDay([], 3, at(2026, 1, 1));
    expect(days.map((d) => d.day)).toEqual(['2025-12-30', '2025-12-31', '2026-01-01']);
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
