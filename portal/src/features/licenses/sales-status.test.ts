import { describe, expect, it } from 'vitest';
import { DAY_MS } from '../../lib/from-server';
import { formatDateTime } from '../../lib/format';
import { licenseStatus, parseStatuses, statusLabel } from './license-stats';
import { subscriptionExpiry } from './policy-values';
import { renewProblems } from './renewal-values';

const now = Date.UTC(2026, 2, 10, 12);
const plain = { expiresAtEpochMillis: null, revokedAtEpochMillis: null, graceDays: null, expiryBasis: 'fixed', expiryStartedAtEpochMillis: null } as const;

describe('licenseStatus (the server rule: revoked, expired past grace, grace, notStarted, active)', () => {
  it('puts the time between the expiry and the end of its grace days in grace, and after it in expired', () => {
    const license = { ...plain, expiresAtEpochMillis: now - DAY_MS, graceDays: 3 };
    expect(licenseStatus(license, now)).toBe('grace');
    expect(licenseStatus(license, now - DAY_MS)).toBe('grace');
    expect(licenseStatus(license, now - DAY_MS - 1)).toBe('active');
    expect(licenseStatus(license, now + 2 * DAY_MS - 1)).toBe('grace');
    expect(licenseStatus(license, now + 2 * DAY_MS)).toBe('expired');
    expect(licenseStatus({ ...license, graceDays: null }, now)).toBe('expired');
  });

  it('reads a first-use clock that has not started as notStarted, and revoked above everything', () => {
    const trial = { ...plain, expiryBasis: 'firstValidation' as const };
    expect(licenseStatus(trial, now)).toBe('notStarted');
    expect(licenseStatus({ ...trial, expiryStartedAtEpochMillis: now - 1, expiresAtEpochMillis: now + DAY_MS }, now)).toBe('active');
    expect(licenseStatus({ ...trial, revokedAtEpochMillis: now - 1 }, now)).toBe('revoked');
    expect(licenseStatus({ ...plain, expiresAtEpochMillis: now - DAY_MS, graceDays: 3, revokedAtEpochMillis: now }, now)).toBe('revoked');
  });
});

describe('statusLabel', () => {
  it('says "In grace until <end of grace>" on the page and "In grace" in lists, the sentence kept for hovering', () => {
    const license = { ...plain, expiresAtEpochMillis: now - DAY_MS, graceDays: 3 };
    const end = formatDateTime(now + 2 * DAY_MS);
    expect(statusLabel(license, { now })).toEqual({ status: 'grace', text: `In grace until ${end}`, full: `In grace until ${end}`, tone: 'warn' });
    expect(statusLabel(license, { now, short: true })).toMatchObject({ text: 'In grace', full: `In grace until ${end}` });
  });

  it('says "Trial, ends <date>" for an active trial, "Trial" without an expiry, and the plain words otherwise', () => {
    const trial = { ...plain, trial: true, expiresAtEpochMillis: now + DAY_MS };
    expect(statusLabel(trial, { now }).text).toBe(`Trial, ends ${formatDateTime(now + DAY_MS)}`);
    expect(statusLabel(trial, { now, short: true }).text).toBe('Trial');
    expect(statusLabel({ ...trial, expiresAtEpochMillis: null }, { now }).text).toBe('Trial');
    expect(statusLabel({ ...plain, trial: true, expiryBasis: 'firstValidation' }, { now }).text).toBe('Not started');
    expect(statusLabel(plain, { now })).toMatchObject({ text: 'Active', tone: 'ok' });
    expect(statusLabel({ ...plain, expiresAtEpochMillis: now }, { now })).toMatchObject({ text: 'Expired', tone: 'bad' });
    expect(statusLabel({ ...plain, revokedAtEpochMillis: now }, { now })).toMatchObject({ text: 'Revoked', tone: 'bad' });
    // A trial past its expiry is in grace or expired like any license.
    expect(statusLabel({ ...trial, expiresAtEpochMillis: now - 1 }, { now }).text).toBe('Expired');
  });
});

describe('parseStatuses', () => {
  it('keeps the known statuses of a comma-separated filter, in list order, once each', () => {
    expect(parseStatuses('grace,notStarted,bogus,grace')).toEqual(['notStarted', 'grace']);
    expect(parseStatuses('')).toEqual([]);
    expect(parseStatuses(undefined)).toEqual([]);
  });
});

describe('subscriptionExpiry', () => {
  it('is one billing period from now for a subscription with a fixed expiry basis', () => {
    expect(subscriptionExpiry({ isSubscription: true, recurringPeriodDays: 30, expiryBasis: 'fixed' }, now)).toBe(now + 30 * DAY_MS);
    // Names only (no product details): nothing to fill.
    expect(subscriptionExpiry(undefined, now)).toBeNull();
    expect(subscriptionExpiry({ isSubscription: false, recurringPeriodDays: 30 }, now)).toBeNull();
    expect(subscriptionExpiry({ isSubscription: true, recurringPeriodDays: null }, now)).toBeNull();
    // A clock of its own decides.
    expect(subscriptionExpiry({ isSubscription: true, recurringPeriodDays: 30, expiryBasis: 'creation' }, now)).toBeNull();
    expect(subscriptionExpiry({ isSubscription: true, recurringPeriodDays: 30, expiryBasis: 'firstValidation' }, now)).toBeNull();
  });
});

describe('renewProblems', () => {
  it("takes empty days (the product's period) or whole days within the API's bounds, and an optional amount", () => {
    expect(renewProblems('', '')).toEqual({});
    expect(renewProblems('30', '4.99')).toEqual({});
    expect(renewProblems('0', '')).toEqual({ days: 'Enter 1 to 36500 days.' });
    expect(renewProblems('36501', '')).toEqual({ days: 'Enter 1 to 36500 days.' });
    expect(renewProblems('1.5', '')).toEqual({ days: 'Enter a whole number (no decimals).' });
    expect(renewProblems('', '-1')).toEqual({ amount: 'Cannot be negative.' });
    expect(renewProblems('', 'abc')).toEqual({ amount: 'Enter an amount such as 19.99.' });
  });
});
