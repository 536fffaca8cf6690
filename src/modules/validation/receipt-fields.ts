// The signed fields that license policies add to a validation receipt (DECISIONS.md "License
// policies"): what a client needs to act offline. Features are merged here, only when a
// receipt is asked for, so that a plain validation never parses them.
import { effectiveFeatures, type EffectiveFeatures } from '../license-settings/license-settings.js';
import type { ValidationReason } from './validation.decision.js';
import type { ValidationOutcome } from './validation.types.js';

export interface ReceiptPolicyFields {
  expiresAtEpochMillis: number | null;
  graceEndsAtEpochMillis: number | null;
  features: EffectiveFeatures;
  slotTimeoutMinutes: number | null;
  /** only where the license (or its product) reveals reasons */
  reason?: ValidationReason;
}

/** An unknown license (no outcome) gets the neutral values and no reason. */
export function receiptPolicyFields(outcome: ValidationOutcome | null): ReceiptPolicyFields {
  if (!outcome) return { expiresAtEpochMillis: null, graceEndsAtEpochMillis: null, features: {}, slotTimeoutMinutes: null };
  const fields: ReceiptPolicyFields = {
    expiresAtEpochMillis: outcome.expiresAtEpochMillis,
    graceEndsAtEpochMillis: outcome.graceEndsAtEpochMillis,
    features: effectiveFeatures(outcome.productFeatures, outcome.licenseFeatures, outcome.tierFeatures),
    slotTimeoutMinutes: outcome.slotTimeoutMinutes,
  };
  if (outcome.revealReasons) fields.reason = outcome.reason;
  return fields;
}
