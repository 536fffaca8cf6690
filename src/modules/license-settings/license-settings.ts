// How a license takes each setting of the declaration (license-settings.bounds.ts) from its
// product: the copied ones once, at creation (copiedSettings), the live ones at every use,
// through one resolver each (the license's own value, else the product's). Every reader
// (services, validation engines, receipts, license files, the sharing detector) goes
// through these; and how the JSON and flag settings are stored.
import type { LicenseRecord, ProductRow } from '../../db/schema.js';
import { badRequest } from '../../http/errors.js';
import { DAY_MS } from '../../lib/time.js';
import { COPIED_SETTINGS, SELF_RELEASE_WINDOW_DAYS, expiryPolicyProblem, type CopiedSetting, type ExpiryBasis } from './license-settings.bounds.js';
import type { SharingAlert } from './license-settings.schemas.js';

/** The column each copied setting is stored in, on products and licenses alike. */
const COPIED_COLUMNS = {
  maxIps: 'max_ips',
  maxHwids: 'max_hwids',
  slotTimeoutMinutes: 'slot_timeout_minutes',
  selfReleaseLimit: 'self_release_limit',
  expiryBasis: 'expiry_basis',
  validForDays: 'valid_for_days',
  graceDays: 'grace_days',
} as const satisfies Record<CopiedSetting, keyof ProductRow & keyof LicenseRecord>;
type CopiedColumn = (typeof COPIED_COLUMNS)[CopiedSetting];

/**
 * A new license's copied settings: each the one given at creation, else the product's. A
 * clock's length goes with its basis: naming another basis than the product's does not
 * take the product's validForDays. 400 for a basis and length that do not go together.
 */
export function copiedSettings(given: { [K in CopiedSetting]?: unknown }, product: ProductRow): Pick<LicenseRecord, CopiedColumn> {
  const values: Record<string, unknown> = {};
  for (const setting of COPIED_SETTINGS) {
    const column = COPIED_COLUMNS[setting];
    values[column] = given[setting] === undefined ? product[column] : given[setting];
  }
  if (given.validForDays === undefined && given.expiryBasis !== undefined && given.expiryBasis !== product.expiry_basis) {
    values.valid_for_days = null;
  }
  const copied = values as Pick<LicenseRecord, CopiedColumn>;
  assertExpiryPolicy(copied.expiry_basis as ExpiryBasis, copied.valid_for_days);
  return copied;
}

/**
 * A new license's updatesUntilEpochMillis: the one given (staff), else its product's
 * updatesForDays from `now` (the sale or the creation), else null (the expiry rule).
 */
export function updatesUntilAtCreation(given: number | null | undefined, product: Pick<ProductRow, 'updates_for_days'>, now: number): number | null {
  if (given !== undefined) return given;
  return product.updates_for_days === null ? null : now + product.updates_for_days * DAY_MS;
}

/**
 * updatesUntilEpochMillis after a renewal of `periodDays`: moved by the period like the expiry
 * (from itself, or from now when it has passed); null stays null (the window follows the expiry).
 */
export const renewedUpdatesUntil = (updatesUntil: number | null, periodDays: number, now: number): number | null =>
  updatesUntil === null ? null : Math.max(updatesUntil, now) + periodDays * DAY_MS;

/**
 * The last publication moment whose releases a license may have (published or deprecated ones
 * published no later than it): updatesUntil when set, else the end of grace, else the expiry;
 * null: no limit (a perpetual license without updatesUntil).
 */
export function releaseWindowEnd(license: Pick<LicenseRecord, 'updates_until' | 'expires_at' | 'grace_days'>): number | null {
  if (license.updates_until !== null) return license.updates_until;
  if (license.expires_at === null) return null;
  return license.grace_days === null ? license.expires_at : license.expires_at + license.grace_days * DAY_MS;
}

/** revealReasons in force: the license's own (stored 1/0), else its product's. */
export const revealReasons = (license: number | null, product: number | null | undefined): boolean => (license ?? product ?? 0) === 1;

/** sharingAlert in force: the license's own, else its product's; null: off. */
export const sharingAlert = (license: SharingAlert | null | undefined, product: SharingAlert | null | undefined): SharingAlert | null =>
  license ?? product ?? null;

export type Features = Record<string, boolean | number | string | null>;
export type EffectiveFeatures = Record<string, boolean | number | string>;

/**
 * features in force: the product's (stored JSON text), then the tier's, then the license's,
 * merged key by key; a null in the tier or the license removes the key.
 */
export function effectiveFeatures(product: string | null, license: string | null, tier: string | null = null): EffectiveFeatures {
  if (license === null && tier === null) return parseFeatures(product) as EffectiveFeatures;
  const merged: Features = { ...parseFeatures(product), ...parseFeatures(tier), ...parseFeatures(license) };
  for (const key of Object.keys(merged)) if (merged[key] === null) delete merged[key];
  return merged as EffectiveFeatures;
}

/** validForDays is required with a clock (creation, firstValidation) and must be null without one. */
export function assertExpiryPolicy(basis: ExpiryBasis, validForDays: number | null): void {
  const problem = expiryPolicyProblem(basis, validForDays);
  if (problem) throw badRequest(problem);
}

/** Stored JSON text of a features object (null: none). */
export const parseFeatures = (text: string | null): Features => (text === null ? {} : (JSON.parse(text) as Features));

/** What to store: null for none, so an unused setting costs nothing to read. */
export const storeFeatures = (features: Features | undefined): string | null =>
  features === undefined || Object.keys(features).length === 0 ? null : JSON.stringify(features);

/** The integer a boolean-or-null setting is stored as. */
export const storeFlag = (value: boolean | null | undefined): number | null => (value === undefined || value === null ? null : value ? 1 : 0);

/** Checks what the schema cannot (at least one limit); the stored JSON text or null. */
export function sharingAlertColumn(alert: SharingAlert | null | undefined): string | null {
  if (alert === undefined || alert === null) return null;
  if (alert.distinctIps === undefined && alert.distinctHwids === undefined) {
    throw badRequest('sharingAlert must give distinctIps, distinctHwids or both');
  }
  const stored: SharingAlert = { windowHours: alert.windowHours };
  if (alert.distinctIps !== undefined) stored.distinctIps = alert.distinctIps;
  if (alert.distinctHwids !== undefined) stored.distinctHwids = alert.distinctHwids;
  return JSON.stringify(stored);
}

export const parseSharingAlert = (column: string | null): SharingAlert | null => (column === null ? null : (JSON.parse(column) as SharingAlert));

/** Self-service releases count over this rolling window. */
export const SELF_RELEASE_WINDOW_MS = SELF_RELEASE_WINDOW_DAYS * DAY_MS;
