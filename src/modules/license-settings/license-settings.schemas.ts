// The API schemas of the settings a license takes from its product (product and license
// bodies alike), every bound taken from the declaration (license-settings.bounds.ts).
// `scope` starts a description with what the setting means where it appears.
import { Type, type Static } from '@sinclair/typebox';
import { NullableInteger } from '../../http/schemas.js';
import { EXPIRY_BASES, LICENSE_SETTINGS as S, SELF_RELEASE_WINDOW_DAYS, TIERS, UPDATES_FOR_DAYS, type ExpiryBasis } from './license-settings.bounds.js';

const bounds = (range: { minimum: number; maximum: number }) => ({ minimum: range.minimum, maximum: range.maximum });

/** maxIps or maxHwids: a slot limit (null: unlimited). */
export const SlotLimitSchema = (setting: 'maxIps' | 'maxHwids', description: string, example: number) =>
  NullableInteger({ ...bounds(S[setting]), description, examples: [example] });

export const SlotTimeoutMinutesSchema = (scope: string) =>
  NullableInteger({
    ...bounds(S.slotTimeoutMinutes),
    description:
      `${scope}Minutes after which an IP or HWID binding that no successful validation has presented may be released ` +
      'to make room for a new one (least recently seen first, only when a validation needs the slot). ' +
      'null: bindings are permanent.',
    examples: [10080],
  });

export const SelfReleaseLimitSchema = (scope: string) =>
  NullableInteger({
    ...bounds(S.selfReleaseLimit),
    description:
      `${scope}How many self-service releases (POST /licenses/release that freed something) the license may make in any ` +
      `${SELF_RELEASE_WINDOW_DAYS} days. null: self-service release is off.`,
    examples: [3],
  });

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
    ...bounds(S.validForDays),
    description: `${scope}Length of the license in days: required with expiryBasis creation or firstValidation, null with fixed.`,
    examples: [14],
  });

export const GraceDaysSchema = (scope: string) =>
  NullableInteger({
    ...bounds(S.graceDays),
    description:
      `${scope}Days after expiry during which IPs and HWIDs already bound still validate (reason GRACE); a value not yet ` +
      'bound is refused (EXPIRED). A revoked license has no grace. null: none.',
    examples: [3],
  });

/** A features object: at most 64 keys of `a-z 0-9 . _ -`, values boolean, integer or string (<= 256 characters). */
export const FeaturesSchema = (scope: string, nullRemoves: boolean) =>
  Type.Unsafe<Record<string, boolean | number | string | null>>({
    type: 'object',
    maxProperties: S.features.maxKeys,
    propertyNames: { pattern: S.features.keyPattern },
    additionalProperties: {
      type: nullRemoves ? ['boolean', 'integer', 'string', 'null'] : ['boolean', 'integer', 'string'],
      maxLength: S.features.maxStringLength,
      minimum: -Number.MAX_SAFE_INTEGER,
      maximum: Number.MAX_SAFE_INTEGER,
    },
    description:
      `${scope}Feature flags: at most ${S.features.maxKeys} keys matching ${S.features.keyPattern}, each a boolean, an integer or ` +
      `a string of up to ${S.features.maxStringLength} characters.${nullRemoves ? " null removes the product's key from effectiveFeatures." : ''}`,
    examples: [nullRemoves ? { seats: 10, beta: null } : { pro: true, seats: 5, tier: 'pro' }],
  });

export const EffectiveFeaturesSchema = Type.Unsafe<Record<string, boolean | number | string>>({
  type: 'object',
  additionalProperties: { type: ['boolean', 'integer', 'string'] },
  description: "The product's features with the license's merged over them key by key (what receipts and license files carry)",
  examples: [{ pro: true, seats: 10, tier: 'pro' }],
});

/** A license's revealReasons (a product's is a plain boolean). */
export const LicenseRevealReasonsSchema = (scope: string) =>
  Type.Unsafe<boolean | null>({
    type: ['boolean', 'null'],
    description: `${scope}Whether the validate body carries \`reason\`; null: the product's setting (read live).`,
    examples: [true],
  });

const { distinct, windowHours } = S.sharingAlert;
const SharingAlertObject = Type.Object(
  {
    distinctIps: Type.Optional(
      Type.Integer({ ...bounds(distinct), description: 'Suspected when presented from more distinct IPs than this in the window' }),
    ),
    distinctHwids: Type.Optional(
      Type.Integer({ ...bounds(distinct), description: 'Suspected when presented from more distinct HWIDs than this in the window' }),
    ),
    windowHours: Type.Integer({
      ...bounds(windowHours),
      description: `The sliding window, in hours (${windowHours.minimum}-${windowHours.maximum})`,
    }),
  },
  { additionalProperties: false },
);
export type SharingAlert = Static<typeof SharingAlertObject>;

/** The sharingAlert setting as product and license bodies take and show it. */
export const SharingAlertSchema = (scope: string) =>
  Type.Unsafe<SharingAlert | null>({
    ...SharingAlertObject,
    type: ['object', 'null'],
    description:
      `${scope}Shared-key detection: when one license is presented (valid or not) from strictly more distinct IPs or HWIDs ` +
      'than allowed within the last `windowHours`, it is marked `sharingSuspectedAtEpochMillis` and ' +
      '`licenses.sharing.suspected` is audited and sent once, until staff clear it. Give distinctIps, distinctHwids or both.',
    examples: [{ distinctIps: 5, windowHours: 24 }],
  });

const MarketplaceId = (description: string) =>
  Type.Optional(Type.Union([Type.String({ minLength: 1, maxLength: 200 }), Type.Null()], { description, examples: ['54321'] }));

/** A product's tier as bodies take and show it (bounds from TIERS in license-settings.bounds.ts). */
export const TierSchema = Type.Object(
  {
    code: Type.String({ pattern: TIERS.codePattern, description: "The tier's code, unique in its product (a license's `tier`)", examples: ['pro'] }),
    name: Type.String({ minLength: 1, maxLength: TIERS.maxNameLength, description: 'Display name', examples: ['Pro'] }),
    features: FeaturesSchema(
      "Merged over the product's features, under the license's own, for licenses at this tier (applies live). ",
      true,
    ),
    marketplaceResourceId: MarketplaceId(
      'A BuiltByBit resource (or addon) id that sells the product at this tier; unique across every product and tier (409 otherwise)',
    ),
    polymartProductId: MarketplaceId('A Polymart product id that sells the product at this tier; unique across every product and tier (409 otherwise)'),
  },
  { additionalProperties: false },
);
export type Tier = Static<typeof TierSchema>;

export const TiersSchema = (scope: string) =>
  Type.Array(TierSchema, {
    maxItems: TIERS.maxTiers,
    description:
      `${scope}At most ${TIERS.maxTiers}. Removing a tier that licenses hold is 409 naming how many. A tier's marketplace ids sell the product at that tier.`,
    examples: [[{ code: 'pro', name: 'Pro', features: { pro: true }, marketplaceResourceId: '54321' }]],
  });

/** A product's days of updates (releases). */
export const UpdatesForDaysSchema = (scope: string) =>
  NullableInteger({
    ...bounds(UPDATES_FOR_DAYS),
    description:
      `${scope}Days of updates a sale includes: a license created (or sold) then receives the releases published up to ` +
      'its creation plus this many days (its updatesUntilEpochMillis); a renewal moves that by the period. null: the ' +
      "license's expiry (or the end of its grace) bounds its releases, none for a perpetual license.",
    examples: [365],
  });

/** A license's updatesUntilEpochMillis. */
export const UpdatesUntilSchema = (scope: string) =>
  NullableInteger({
    minimum: -Number.MAX_SAFE_INTEGER,
    maximum: Number.MAX_SAFE_INTEGER,
    description:
      `${scope}Releases published up to this moment (epoch millis) are the license's to download; past it the license still ` +
      "validates, it only stops receiving newer releases. null: its expiry (or grace end) bounds them, none for a perpetual license.",
    examples: [1893456000000],
  });
