// License-policy values between forms and the API (issue #30): feature rows ⇄ objects, the
// browser's own checks of them, and how a license's clock reads ("Trial not started").
import { DAY_MS, FEATURE_KEY_MAX_LENGTH, LICENSE_SETTINGS } from '../../lib/from-server';
import type { License } from '../../types/api';

export type ExpiryBasis = License['expiryBasis'];
export type FeatureType = 'boolean' | 'integer' | 'string' | 'remove';
export interface FeatureRow {
  key: string;
  type: FeatureType;
  value: string;
}
export type Features = Record<string, boolean | number | string | null>;

const { keyPattern, maxKeys: MAX_FEATURES, maxStringLength } = LICENSE_SETTINGS.features;
const KEY = new RegExp(keyPattern);

export function featureRows(features: Features | undefined): FeatureRow[] {
  return Object.entries(features ?? {}).map(([key, value]) =>
    value === null
      ? { key, type: 'remove', value: '' }
      : typeof value === 'boolean'
        ? { key, type: 'boolean', value: String(value) }
        : typeof value === 'number'
          ? { key, type: 'integer', value: String(value) }
          : { key, type: 'string', value },
  );
}

/** The first problem of the rows in plain words, or null. */
export function checkFeatureRows(rows: FeatureRow[]): string | null {
  if (rows.length > MAX_FEATURES) return `At most ${MAX_FEATURES} features.`;
  const seen = new Set<string>();
  for (const row of rows) {
    const key = row.key.trim();
    if (key === '') return 'Every feature needs a key.';
    if (!KEY.test(key)) return `Key "${key}": use lower-case letters, digits, ".", "_" or "-" (starting with a letter or digit, at most ${FEATURE_KEY_MAX_LENGTH}).`;
    if (seen.has(key)) return `Key "${key}" appears twice.`;
    seen.add(key);
    if (row.type === 'integer' && !/^-?\d+$/.test(row.value.trim())) return `Key "${key}": enter a whole number.`;
    if (row.type === 'string' && row.value.length > maxStringLength) return `Key "${key}": at most ${maxStringLength} characters.`;
  }
  return null;
}

/** The object the API takes; values that do not parse pass through for the API to name. */
export function featuresFromRows(rows: FeatureRow[]): Features {
  const features: Features = {};
  for (const row of rows) {
    const key = row.key.trim();
    features[key] =
      row.type === 'remove' ? null : row.type === 'boolean' ? row.value !== 'false' : row.type === 'integer' && /^-?\d+$/.test(row.value.trim()) ? Number(row.value.trim()) : row.value;
  }
  return features;
}

/** "" (inherit / not set) ⇄ true / false. */
export const flagInput = (value: boolean | null | undefined): 'true' | 'false' | '' => (value === true ? 'true' : value === false ? 'false' : '');
export const flagValue = (text: 'true' | 'false' | ''): boolean | null => (text === '' ? null : text === 'true');

/** A first-use trial whose clock has not started yet. */
export const trialNotStarted = (license: Pick<License, 'expiryBasis' | 'expiryStartedAtEpochMillis' | 'expiresAtEpochMillis'>) =>
  license.expiryBasis === 'firstValidation' && license.expiryStartedAtEpochMillis === null && license.expiresAtEpochMillis === null;

/** When the grace after expiry ends, or null without grace (a revoked license has none). */
export function graceEnd(license: Pick<License, 'graceDays' | 'expiresAtEpochMillis' | 'revokedAtEpochMillis'>): number | null {
  if (license.graceDays === null || license.expiresAtEpochMillis === null || license.revokedAtEpochMillis !== null) return null;
  return license.expiresAtEpochMillis + license.graceDays * DAY_MS;
}

/**
 * The expiry a license of a subscription product gets when issued now: one billing period
 * (`recurringPeriodDays`) from `now`, as a sale gives it. Null for a product that is not a
 * subscription, or whose expiry basis runs its own clock (from creation or first use).
 */
export function subscriptionExpiry(
  product: { isSubscription?: boolean; recurringPeriodDays?: number | null; expiryBasis?: ExpiryBasis } | undefined,
  now: number,
): number | null {
  if (!product?.isSubscription || !product.recurringPeriodDays) return null;
  if (product.expiryBasis !== undefined && product.expiryBasis !== 'fixed') return null;
  return now + product.recurringPeriodDays * DAY_MS;
}
