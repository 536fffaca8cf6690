// What a license's dates mean and how a sale moves them, said once for every reader (the
// license bodies, lists, stats, the purchase rule, staff renewals): where grace ends, the
// lifecycle status, the expiry a new sale gives, and what one renewal changes. Pure: rows
// in, values out.
import type { LicenseRecord } from '../../db/schema.js';
import { DAY_MS } from '../../lib/time.js';
import { renewedUpdatesUntil } from './license-settings.js';

export const LICENSE_STATUSES = ['active', 'notStarted', 'grace', 'expired', 'revoked'] as const;
export type LicenseStatus = (typeof LICENSE_STATUSES)[number];

type Dates = Pick<LicenseRecord, 'expires_at' | 'grace_days' | 'revoked_at' | 'expiry_basis' | 'expiry_started_at'>;

/** When grace ends: the expiry plus the grace days (the expiry itself without grace); null without an expiry. */
export const graceEndOf = (license: Pick<LicenseRecord, 'expires_at' | 'grace_days'>): number | null =>
  license.expires_at === null ? null : license.expires_at + (license.grace_days ?? 0) * DAY_MS;

/** A firstValidation clock that has not started (and no expiry set by hand). */
export const notStarted = (license: Pick<Dates, 'expiry_basis' | 'expires_at' | 'expiry_started_at'>): boolean =>
  license.expiry_basis === 'firstValidation' && license.expires_at === null && license.expiry_started_at === null;

/** revoked, else expired (past grace), grace, notStarted, or active. */
export function licenseStatus(license: Dates, now: number): LicenseStatus {
  if (license.revoked_at !== null) return 'revoked';
  const graceEnd = graceEndOf(license);
  if (graceEnd !== null && now >= graceEnd) return 'expired';
  if (license.expires_at !== null && now >= license.expires_at) return 'grace';
  if (notStarted(license)) return 'notStarted';
  return 'active';
}

/** A subscription (`isSubscription` with `recurringPeriodDays`): its period in days, else null. */
export const subscriptionDays = (product: { isSubscription: boolean; recurringPeriodDays: number | null }): number | null =>
  product.isSubscription && product.recurringPeriodDays ? product.recurringPeriodDays : null;

/** A product as a sale reads it (the API's shape). */
export interface SoldProduct {
  isSubscription: boolean;
  recurringPeriodDays: number | null;
  expiryBasis: string;
  validForDays: number | null;
  graceDays: number | null;
  updatesForDays: number | null;
}

/**
 * The dates a new sale of the product gives, counted from `now` (a trial that converts gets
 * them too): the product's expiry policy; with a fixed one, a subscription runs one period.
 * A firstValidation product's clock starts at the sale when the license has been used
 * already (a converted trial); a new license waits for its first validation.
 */
export function saleTerms(
  product: SoldProduct,
  now: number,
  startClock: boolean,
): Pick<LicenseRecord, 'expires_at' | 'expiry_basis' | 'valid_for_days' | 'grace_days' | 'expiry_started_at' | 'updates_until'> {
  const basis = product.expiryBasis;
  const days = product.validForDays;
  const updatesUntil = product.updatesForDays === null ? null : now + product.updatesForDays * DAY_MS;
  const common = { expiry_basis: basis, valid_for_days: days, grace_days: product.graceDays, updates_until: updatesUntil };
  if (basis === 'creation' || (basis === 'firstValidation' && startClock)) {
    return { ...common, expires_at: now + days! * DAY_MS, expiry_started_at: now };
  }
  if (basis === 'firstValidation') return { ...common, expires_at: null, expiry_started_at: null };
  const period = subscriptionDays(product);
  return { ...common, expires_at: period === null ? null : now + period * DAY_MS, expiry_started_at: null };
}

/** What one renewal changes on a license (the columns to set) and the expiry it replaced. */
export interface RenewedTerms {
  set: Partial<Pick<LicenseRecord, 'expires_at' | 'valid_for_days' | 'expiry_set_at' | 'updates_until'>>;
  previousExpiresAt: number | null;
}

/**
 * One renewal of `days` (default: the product's period): the expiry moves by the period,
 * counted from the current expiry while that is ahead or in grace, from now after grace. A
 * clock that has not started grows by the period instead. A license without an expiry
 * (perpetual) changes nothing. The updates window (updatesUntilEpochMillis), when the license
 * has one, moves by the period like the expiry. Every date a renewal moves is moved here.
 */
export function renewedTerms(
  license: Pick<LicenseRecord, 'expires_at' | 'grace_days' | 'expiry_basis' | 'expiry_started_at' | 'valid_for_days' | 'updates_until'>,
  _product: { recurringPeriodDays: number | null },
  now: number,
  days: number,
): RenewedTerms {
  const previousExpiresAt = license.expires_at;
  const updates = license.updates_until === null ? {} : { updates_until: renewedUpdatesUntil(license.updates_until, days, now) };
  if (notStarted(license)) return { set: { valid_for_days: (license.valid_for_days ?? 0) + days, ...updates }, previousExpiresAt };
  if (license.expires_at === null) return { set: {}, previousExpiresAt };
  const graceEnd = graceEndOf(license)!;
  const from = now < graceEnd ? license.expires_at : now;
  return { set: { expires_at: from + days * DAY_MS, expiry_set_at: now, ...updates }, previousExpiresAt };
}
