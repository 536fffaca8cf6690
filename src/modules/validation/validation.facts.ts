// The facts a validation is decided from, gathered from what an engine read, and the one
// outcome built from a decision. Pure: both engines and the PostgreSQL fast path pass here,
// so what a license row means (its clock, its grace, its inherited settings) is said once.
import { DAY_MS } from '../../lib/time.js';
import { revealReasons } from '../license-settings/license-settings.js';
import { inGrace, type Decision, type ValidationFacts } from './validation.decision.js';
import type { SlotSeen, ValidationOutcome, ValidationRequest } from './validation.types.js';

/** A license's row as validation reads it. */
export interface LicenseLimits {
  product_id: string;
  expires_at: number | null;
  max_ips: number | null;
  max_hwids: number | null;
  /** null: bindings are permanent */
  slot_timeout_minutes: number | null;
  /** License policies, read with the row (the product's live settings joined to it). */
  revoked_at: number | null;
  expiry_basis: string;
  valid_for_days: number | null;
  grace_days: number | null;
  expiry_started_at: number | null;
  features: string | null;
  reveal_reasons: number | null;
  product_features: string | null;
  product_reveal_reasons: number | null;
  /** The features of the license's tier (null at the base), read live like the product's. */
  tier_features: string | null;
}

/** Whether the license waits for its first passing validation to start its expiry clock. */
export const clockPending = (license: Pick<LicenseLimits, 'expiry_basis' | 'expires_at' | 'expiry_started_at' | 'revoked_at'>): boolean =>
  license.expiry_basis === 'firstValidation' && license.expires_at === null && license.expiry_started_at === null && license.revoked_at === null;

/** The expiry a clock started at `now` sets. */
export const startedExpiry = (license: Pick<LicenseLimits, 'valid_for_days'>, now: number): number => now + license.valid_for_days! * DAY_MS;

/** The end of the grace days, or null without grace (or without an expiry). */
export const graceEnd = (license: Pick<LicenseLimits, 'expires_at' | 'grace_days'>): number | null =>
  license.expires_at === null || license.grace_days === null ? null : license.expires_at + license.grace_days * DAY_MS;

/**
 * What the answer to a known license says besides `valid`; `expiresAt` is the expiry after the
 * validation. A request naming another product than the license's learns none of the
 * license's facts (DECISIONS.md "Safe by default"): only the reason, where revealed.
 */
export function outcomeOf(license: LicenseLimits, facts: ValidationFacts, decision: Decision, expiresAt: number | null): ValidationOutcome {
  if (facts.licenseProductId !== facts.requestedProductId) return otherProductOutcome(license, decision);
  const expired = facts.expiresAtEpochMillis !== null && facts.now >= facts.expiresAtEpochMillis;
  return {
    reason: decision.reason,
    licenseProductId: license.product_id,
    expiresAtEpochMillis: expiresAt,
    // The license is in its grace days (whether or not this request's values were bound).
    graceEndsAtEpochMillis: expired && inGrace(facts) ? facts.graceEndsAtEpochMillis ?? null : null,
    slotTimeoutMinutes: license.slot_timeout_minutes,
    revealReasons: revealReasons(license.reveal_reasons, license.product_reveal_reasons),
    licenseFeatures: license.features,
    productFeatures: license.product_features,
    tierFeatures: license.tier_features,
  };
}

/** The outcome of a request for another product: the answer and its receipt as for an unknown license, plus the reason where revealed. */
const otherProductOutcome = (license: LicenseLimits, decision: Decision): ValidationOutcome => ({
  reason: decision.reason,
  licenseProductId: license.product_id,
  expiresAtEpochMillis: null,
  graceEndsAtEpochMillis: null,
  slotTimeoutMinutes: null,
  revealReasons: revealReasons(license.reveal_reasons, license.product_reveal_reasons),
  licenseFeatures: null,
  productFeatures: null,
  tierFeatures: null,
});

/** The facts decideValidation needs, from what either engine read. */
export function validationFacts(req: ValidationRequest, now: number, license: LicenseLimits, ip: SlotSeen, hwid: SlotSeen): ValidationFacts {
  return {
    blocked: req.blocked === true,
    versionRefused: req.versionRefused === true,
    licenseProductId: license.product_id,
    requestedProductId: req.productId,
    expiresAtEpochMillis: license.expires_at,
    now,
    ip: { bound: ip.bound, used: ip.used, limit: license.max_ips, idle: ip.idle ?? 0 },
    hwid: { bound: hwid.bound, used: hwid.used, limit: license.max_hwids, idle: hwid.idle ?? 0 },
    revoked: license.revoked_at !== null,
    graceEndsAtEpochMillis: graceEnd(license),
    clockPending: clockPending(license),
  };
}

