// The settings of "License policies" (DECISIONS.md), shared by products (the defaults of new
// licenses, and the tier's features and reveal setting, which apply live) and licenses.
// Every default keeps SPEC.md's behaviour: fixed expiry, no grace, no features, bare answers.
import { Type } from '@sinclair/typebox';
import { badRequest } from '../../http/errors.js';
import { NullableInteger } from '../../http/schemas.js';

export const EXPIRY_BASES = ['fixed', 'creation', 'firstValidation'] as const;
export type ExpiryBasis = (typeof EXPIRY_BASES)[number];

export const ExpiryBasisSchema = (scope: string) =>
  Type.Unsafe<ExpiryBasis>({
    type: 'string',
    enum: [...EXPIRY_BASES],
    description:
      `${scope}fixed: expiresAtEpochMillis as given. creation: a license created without expiresAtEpochMillis expires ` +
      'validForDays after its creation. firstValidation: the clock starts at the first validation that passes every check ' +
      '(expiry = then + validForDays); until then expiresAtEpochMillis and expiryStartedAtEpochMillis are null.',
    examples: ['firstValidation'],
  });

export const ValidForDaysSchema = (scope: string) =>
  NullableInteger({
    minimum: 1,
    maximum: 36500,
    description: `${scope}Length of the license in days: required with expiryBasis creation or firstValidation, null with fixed.`,
    examples: [14],
  });

export const GraceDaysSchema = (scope: string) =>
  NullableInteger({
    minimum: 1,
    maximum: 365,
    description:
      `${scope}Days after expiry during which IPs and HWIDs already bound still validate (reason GRACE); a value not yet ` +
      'bound is refused (EXPIRED). A revoked license has no grace. null: none.',
    examples: [3],
  });

const FEATURE_KEY_PATTERN = '^[a-z0-9][a-z0-9._-]{0,63}$';
export const MAX_FEATURES = 64;

/** A features object: at most 64 keys of `a-z 0-9 . _ -`, values boolean, integer or string (<= 256 characters). */
export const FeaturesSchema = (scope: string, nullRemoves: boolean) =>
  Type.Unsafe<Record<string, boolean | number | string | null>>({
    type: 'object',
    maxProperties: MAX_FEATURES,
    propertyNames: { pattern: FEATURE_KEY_PATTERN },
    additionalProperties: {
      type: nullRemoves ? ['boolean', 'integer', 'string', 'null'] : ['boolean', 'integer', 'string'],
      maxLength: 256,
      minimum: -Number.MAX_SAFE_INTEGER,
      maximum: Number.MAX_SAFE_INTEGER,
    },
    description:
      `${scope}Feature flags: at most ${MAX_FEATURES} keys matching ${FEATURE_KEY_PATTERN}, each a boolean, an integer or ` +
      `a string of up to 256 characters.${nullRemoves ? " null removes the product's key from effectiveFeatures." : ''}`,
    examples: [nullRemoves ? { seats: 10, beta: null } : { pro: true, seats: 5, tier: 'pro' }],
  });

export const EffectiveFeaturesSchema = Type.Unsafe<Record<string, boolean | number | string>>({
  type: 'object',
  additionalProperties: { type: ['boolean', 'integer', 'string'] },
  description: "The product's features with the license's merged over them key by key (what receipts and license files carry)",
  examples: [{ pro: true, seats: 10, tier: 'pro' }],
});

export type Features = Record<string, boolean | number | string | null>;
export type EffectiveFeatures = Record<string, boolean | number | string>;

/** Stored JSON text of a features object (null: none). */
export const parseFeatures = (text: string | null): Features => (text === null ? {} : (JSON.parse(text) as Features));

/** What to store: null for none, so an unused setting costs nothing to read. */
export const storeFeatures = (features: Features | undefined): string | null =>
  features === undefined || Object.keys(features).length === 0 ? null : JSON.stringify(features);

/** The product's features with the license's merged over them; a license value null removes the key. */
export function mergeFeatures(productText: string | null, licenseText: string | null): EffectiveFeatures {
  if (licenseText === null) return parseFeatures(productText) as EffectiveFeatures;
  const merged: Features = { ...parseFeatures(productText), ...parseFeatures(licenseText) };
  for (const key of Object.keys(merged)) if (merged[key] === null) delete merged[key];
  return merged as EffectiveFeatures;
}

/** validForDays is required with a clock (creation, firstValidation) and must be null without one. */
export function assertExpiryPolicy(basis: ExpiryBasis, validForDays: number | null): void {
  if (basis !== 'fixed' && validForDays === null) throw badRequest(`validForDays is required with expiryBasis ${basis}`);
  if (basis === 'fixed' && validForDays !== null) throw badRequest('validForDays must be null with expiryBasis fixed');
}

/** The license's own reveal setting, or the product's when it has none. */
export const revealsReasons = (license: number | null, product: number | null | undefined): boolean =>
  (license ?? product ?? 0) === 1;

/** The integer a boolean-or-null setting is stored as. */
export const storeFlag = (value: boolean | null | undefined): number | null => (value === undefined || value === null ? null : value ? 1 : 0);

/**
 * When the expiry clock started after a write that leaves the license at `expiresAt`: never
 * with a fixed expiry; a clock with an expiry keeps its start (or starts now: staff set one);
 * without an expiry it has not started (firstValidation waits for its first validation).
 */
export const clockStartAfterWrite = (basis: string, expiresAt: number | null, previous: number | null, now: number): number | null =>
  basis === 'fixed' ? null : expiresAt !== null ? (previous ?? now) : null;
