// What both validation engines (validation.sqlite.ts, validation.postgres.ts) share:
// the request, the Validator they implement, the facts their decision is made from and
// the attempt row they record. Both import from here, never from validation.service.ts,
// which chooses between them.
import type { NewValidationAttempt } from '../../db/schema.js';
import { inGrace, type Decision, type ValidationFacts, type ValidationReason } from './validation.decision.js';
import { DAY_MS } from '../../lib/time.js';
import { revealReasons } from './license-settings.js';

export interface ValidationRequest {
  licenseId: string;
  productId: string;
  hwid: string;
  /** client IP as the service sees it (client-ip.ts) */
  ip: string;
  /** Written by the validator: the time its decision used (a signed receipt repeats it). */
  decidedAtEpochMillis?: number;
  /** A blocklist rule refuses the request (checked before it reaches the validator, from memory). */
  blocked?: boolean;
  /** Written by the validator when the license exists: its product (the sharing detector's alert may be the product's). */
  licenseProductId?: string;
  /** Written by the validator for a known license: what the answer and a receipt say beyond `valid`. */
  outcome?: ValidationOutcome;
}

/** What a validation of a known license tells beyond `valid` (the body's reason, a receipt's fields). */
export interface ValidationOutcome {
  reason: ValidationReason;
  /** The license's expiry after this validation (a clock it started included). */
  expiresAtEpochMillis: number | null;
  /** The end of the grace days when the answer was given in them, else null. */
  graceEndsAtEpochMillis: number | null;
  slotTimeoutMinutes: number | null;
  revealReasons: boolean;
  /** The features as stored (JSON text): merged only when a receipt needs them. */
  licenseFeatures: string | null;
  productFeatures: string | null;
}

export interface Validator {
  /**
   * Evaluates the request, binds a new IP/HWID when it passes, records the attempt and
   * resolves once all of that is committed. An unknown license is `false`, recording nothing.
   */
  validate(request: ValidationRequest): Promise<boolean>;
  /** Waits for validations in progress. */
  close(): Promise<void>;
}

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
}

/** Whether the license waits for its first passing validation to start its expiry clock. */
export const clockPending = (license: Pick<LicenseLimits, 'expiry_basis' | 'expires_at' | 'expiry_started_at' | 'revoked_at'>): boolean =>
  license.expiry_basis === 'firstValidation' && license.expires_at === null && license.expiry_started_at === null && license.revoked_at === null;

/** The expiry a clock started at `now` sets. */
export const startedExpiry = (license: Pick<LicenseLimits, 'valid_for_days'>, now: number): number => now + Number(license.valid_for_days) * DAY_MS;

/** The end of the grace days, or null without grace (or without an expiry). */
export const graceEnd = (license: Pick<LicenseLimits, 'expires_at' | 'grace_days'>): number | null =>
  license.expires_at === null || license.grace_days === null ? null : Number(license.expires_at) + license.grace_days * DAY_MS;

/** What the answer to a known license says besides `valid`; `expiresAt` is the expiry after the validation. */
export function outcomeOf(license: LicenseLimits, facts: ValidationFacts, decision: Decision, expiresAt: number | null): ValidationOutcome {
  const expired = facts.expiresAtEpochMillis !== null && facts.now >= facts.expiresAtEpochMillis;
  return {
    reason: decision.reason,
    expiresAtEpochMillis: expiresAt,
    // The license is in its grace days (whether or not this request's values were bound).
    graceEndsAtEpochMillis: expired && inGrace(facts) ? facts.graceEndsAtEpochMillis ?? null : null,
    slotTimeoutMinutes: license.slot_timeout_minutes,
    revealReasons: revealReasons(license.reveal_reasons, license.product_reveal_reasons),
    licenseFeatures: license.features,
    productFeatures: license.product_features,
  };
}

/** How many IPs (or HWIDs) a license has bound. */
export interface SlotUsage {
  used: number;
  /** position for the next binding */
  next: number;
}

/** One kind of slot as seen by one request: whether its value is bound, and if not how many are (and how many idle). */
export interface SlotSeen {
  bound: boolean;
  used: number;
  /** Idle bindings found (at most the shortfall); omitted: 0. */
  idle?: number;
}

export type SlotKind = 'ip' | 'hwid';

/** A binding an inactivity release may free: its value and when it was last seen. */
export interface IdleBinding {
  value: string;
  last_seen_at: number;
}

/**
 * lastSeenAtEpochMillis is rewritten only when the stored value is at least this old: a
 * busy binding costs one UPDATE a second, not one per validation (docs/licenses.md).
 */
export const LAST_SEEN_RESOLUTION_MS = 1000;

export const isStale = (lastSeenAt: number, now: number): boolean => now - Number(lastSeenAt) >= LAST_SEEN_RESOLUTION_MS;

/** Bindings last seen before this moment are idle under the license's timeout; null: no timeout. */
export const idleBefore = (license: LicenseLimits, now: number): number | null =>
  license.slot_timeout_minutes === null ? null : now - license.slot_timeout_minutes * 60_000;

/** Whether a request must look for idle bindings of one kind: its value is new, the kind is full and a timeout is set. */
export const mustLookForIdle = (license: LicenseLimits, bound: boolean, used: number, limit: number | null): boolean =>
  license.slot_timeout_minutes !== null && !bound && limit !== null && used >= limit;

/** The audit entry of an inactivity release (DECISIONS.md), written by `validation`. */
export const inactiveReleaseAudit = (licenseId: string, kind: SlotKind, released: IdleBinding) => ({
  licenseId,
  kind,
  value: released.value,
  reason: 'inactive' as const,
  lastSeenAtEpochMillis: Number(released.last_seen_at),
});

/**
 * Attempts inserted by one multi-row statement, per engine. SQLite prepares one statement
 * per row count and keeps them all (64 x 6 values, far below its bound-parameter limit;
 * a batch rarely holds more, so larger chunks would only add prepared statements).
 * PostgreSQL sends one statement per round trip (500 x 7 values, far below its 65535).
 */
export const ATTEMPTS_PER_INSERT = { sqlite: 64, postgres: 500 } as const;

/** The facts decideValidation needs, from what either engine read. */
export function validationFacts(req: ValidationRequest, now: number, license: LicenseLimits, ip: SlotSeen, hwid: SlotSeen): ValidationFacts {
  req.licenseProductId = license.product_id; // every engine's decision passes here with the license it read
  return {
    blocked: req.blocked === true,
    licenseProductId: license.product_id,
    requestedProductId: req.productId,
    expiresAtEpochMillis: license.expires_at === null ? null : Number(license.expires_at),
    now,
    ip: { bound: ip.bound, used: ip.used, limit: license.max_ips, idle: ip.idle ?? 0 },
    hwid: { bound: hwid.bound, used: hwid.used, limit: license.max_hwids, idle: hwid.idle ?? 0 },
    revoked: license.revoked_at !== null,
    graceEndsAtEpochMillis: graceEnd(license),
    clockPending: clockPending(license),
  };
}

/** The attempt row a decision records. */
export function attemptRow(req: ValidationRequest, now: number, decision: Decision): NewValidationAttempt {
  return {
    license_id: req.licenseId,
    hwid: req.hwid,
    ip: req.ip,
    timestamp: now,
    successful: decision.valid ? 1 : 0,
    reason: decision.reason,
  };
}
