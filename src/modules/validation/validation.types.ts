// What both validation engines (validation.sqlite.ts, validation.postgres.ts) share: the
// request, the result and the Validator they implement, the slot views and the attempt row
// they record. The facts a decision is made from, and the outcome built from it, are
// validation.facts.ts's. Engines import from here, never from validation.service.ts, which
// chooses between them.
import type { NewValidationAttempt } from '../../db/schema.js';
import { MINUTE_MS } from '../../lib/time.js';
import type { Decision, ValidationReason } from './validation.decision.js';
import type { LicenseLimits } from './validation.facts.js';

export interface ValidationRequest {
  licenseId: string;
  productId: string;
  hwid: string;
  /** client IP as the service sees it (client-ip.ts) */
  ip: string;
  /** A blocklist rule refuses the request (checked before it reaches the validator, from memory). */
  blocked?: boolean;
  /** The version the client software named (recorded with the attempt). */
  version?: string;
  /** Its product refuses that version (archived or unknown; from memory, version-support.ts). */
  versionRefused?: boolean;
}

/** What a validation of a known license tells beyond `valid` (the body's reason, a receipt's fields). */
export interface ValidationOutcome {
  reason: ValidationReason;
  /** The license's own product (the sharing detector's alert may be the product's). */
  licenseProductId: string;
  /** The license's expiry after this validation (a clock it started included). */
  expiresAtEpochMillis: number | null;
  /** The end of the grace days when the answer was given in them, else null. */
  graceEndsAtEpochMillis: number | null;
  slotTimeoutMinutes: number | null;
  revealReasons: boolean;
  /** The features as stored (JSON text): merged only when a receipt needs them. */
  licenseFeatures: string | null;
  productFeatures: string | null;
  tierFeatures: string | null;
}

/** What validate() answers, once its attempt is committed. */
export interface ValidationResult {
  valid: boolean;
  /** The time the decision used: the recorded attempt's timestamp (a signed receipt repeats it). */
  decidedAtEpochMillis: number;
  /** null: an unknown license (nothing recorded, nothing to say beyond `valid: false`). */
  outcome: ValidationOutcome | null;
  /**
   * The group commit the answer's attempt was committed in: answers that committed together
   * share it (batch-signed receipts form their trees from them). Absent: nothing was recorded.
   */
  committedWith?: CommitGroup;
}

/** Identifies one group commit: one SQLite batch transaction, one PostgreSQL attempts or guarded insert, one locked transaction. */
export type CommitGroup = symbol;
export const newCommitGroup = (): CommitGroup => Symbol('group commit');

export const unknownLicense = (decidedAtEpochMillis: number): ValidationResult => ({ valid: false, decidedAtEpochMillis, outcome: null });

export interface Validator {
  /**
   * Evaluates the request, binds a new IP/HWID when it passes, records the attempt and
   * resolves once all of that is committed. An unknown license is invalid, recording nothing.
   */
  validate(request: ValidationRequest): Promise<ValidationResult>;
  /** Waits for validations in progress. */
  close(): Promise<void>;
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

export const isStale = (lastSeenAt: number, now: number): boolean => now - lastSeenAt >= LAST_SEEN_RESOLUTION_MS;

/** Bindings last seen before this moment are idle under the license's timeout; null: no timeout. */
export const idleBefore = (license: LicenseLimits, now: number): number | null =>
  license.slot_timeout_minutes === null ? null : now - license.slot_timeout_minutes * MINUTE_MS;

/** Whether a request must look for idle bindings of one kind: its value is new, the kind is full and a timeout is set. */
export const mustLookForIdle = (license: LicenseLimits, bound: boolean, used: number, limit: number | null): boolean =>
  license.slot_timeout_minutes !== null && !bound && limit !== null && used >= limit;

/** The audit entry of an inactivity release (DECISIONS.md), written by `validation`. */
export const inactiveReleaseAudit = (licenseId: string, kind: SlotKind, released: IdleBinding) => ({
  licenseId,
  kind,
  value: released.value,
  reason: 'inactive' as const,
  lastSeenAtEpochMillis: released.last_seen_at,
});

/**
 * Attempts inserted by one multi-row statement, per engine. SQLite prepares one statement
 * per row count and keeps them all (64 x 7 values, far below its bound-parameter limit;
 * a batch rarely holds more, so larger chunks would only add prepared statements).
 * PostgreSQL sends one statement per round trip (500 x 7 values, far below its 65535).
 */
export const ATTEMPTS_PER_INSERT = { sqlite: 64, postgres: 500 } as const;

/** The attempt row a decision records. */
export function attemptRow(req: ValidationRequest, now: number, decision: Decision): NewValidationAttempt {
  return {
    license_id: req.licenseId,
    hwid: req.hwid,
    ip: req.ip,
    timestamp: now,
    successful: decision.valid ? 1 : 0,
    reason: decision.reason,
    client_version: req.version ?? null,
  };
}
