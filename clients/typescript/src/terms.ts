// The license terms a signed receipt or license file carries (expiry, grace, features, slot
// timeout, the service's reason), read the same way from both so a plugin can gate features
// offline. Older receipts and files without these fields read as "no features, nothing known".

export type FeatureValue = boolean | number | string;

export interface LicenseTerms {
  /** The effective features (the product's tier with the license's overrides); {} when none or unknown. */
  readonly features: Readonly<Record<string, FeatureValue>>;
  /** One feature's value, or undefined when the license does not have it. */
  feature(code: string): FeatureValue | undefined;
  /** When the license expires (null: never, or not told by an older service). */
  readonly expiresAtEpochMillis: number | null;
  /** Set only while the license is in grace after its expiry: when the grace ends. */
  readonly graceEndsAtEpochMillis: number | null;
  /** Inactive bindings are released after this many minutes (null: bindings are permanent, or not told). */
  readonly slotTimeoutMinutes: number | null;
  /** The service's reason (VALID, GRACE, EXPIRED, HWID_LIMIT_REACHED, ...) where the vendor reveals reasons, else null. */
  readonly reason: string | null;
}

const REASON = /^[A-Z][A-Z0-9_]{0,63}$/;

/** A plain reason code (HWID_LIMIT_REACHED …), else null: the CLI prints it on a line of its own. */
export const reasonCode = (value: unknown): string | null => (typeof value === 'string' && REASON.test(value) ? value : null);

const numberOrNull = (value: unknown): number | null => (typeof value === 'number' && Number.isFinite(value) ? value : null);

/** Reads the terms from a verified payload; anything of the wrong type reads as absent. */
export function readTerms(payload: Record<string, unknown>): LicenseTerms {
  const features: Record<string, FeatureValue> = {};
  const raw = payload.features;
  if (raw !== null && typeof raw === 'object' && !Array.isArray(raw)) {
    for (const [code, value] of Object.entries(raw as Record<string, unknown>)) {
      if (typeof value === 'boolean' || typeof value === 'string' || (typeof value === 'number' && Number.isFinite(value))) features[code] = value;
    }
  }
  Object.freeze(features);
  return Object.freeze({
    features,
    feature: (code: string) => (Object.hasOwn(features, code) ? features[code] : undefined),
    expiresAtEpochMillis: numberOrNull(payload.expiresAtEpochMillis),
    graceEndsAtEpochMillis: numberOrNull(payload.graceEndsAtEpochMillis),
    slotTimeoutMinutes: numberOrNull(payload.slotTimeoutMinutes),
    // a signed value, but printed on a line of its own by the CLI: only a plain reason code is taken
    reason: reasonCode(payload.reason),
  });
}
