import { Type, type Static } from '@sinclair/typebox';
import { NullableInteger, NullableString, PageQueryProperties, SortQueryProperties } from '../../http/schemas.js';
import { LICENSE_KEY_PATTERN } from '../../lib/ids.js';
import { MAX_INT, TIERS } from '../license-settings/license-settings.bounds.js';
import { LICENSE_STATUSES, type LicenseStatus } from '../license-settings/license-terms.js';
import { RELEASE_VERSION } from '../../lib/release-version.js';
import {
  EffectiveFeaturesSchema,
  ExpiryBasisSchema,
  FeaturesSchema,
  GraceDaysSchema,
  LicenseRevealReasonsSchema,
  SelfReleaseLimitSchema,
  SharingAlertSchema,
  SlotLimitSchema,
  SlotTimeoutMinutesSchema,
  UpdatesUntilSchema,
  ValidForDaysSchema,
} from '../license-settings/license-settings.schemas.js';

/**
 * Why a validation attempt ended as it did: the first failed check, or VALID (GRACE: valid
 * in the grace days after expiry). BLOCKED is the blocklist's (checked before step 1).
 */
export const REASONS = [
  'VALID', 'GRACE', 'PRODUCT_MISMATCH', 'REVOKED', 'EXPIRED', 'GRACE_UNBOUND', 'IP_LIMIT_REACHED', 'HWID_LIMIT_REACHED', 'BLOCKED', 'UNKNOWN',
  'VERSION_NOT_SUPPORTED',
] as const;
export type Reason = (typeof REASONS)[number];
/** The reasons of a successful attempt. */
export const SUCCESS_REASONS: readonly Reason[] = ['VALID', 'GRACE'];
/** What the validate body's `reason` may say (where revealed). */
export const ANSWER_REASONS = REASONS.filter((r) => r !== 'UNKNOWN');

/** The policy settings a license carries (request bodies). */
const policyInput = (scope: string) => ({
  expiryBasis: Type.Optional(ExpiryBasisSchema(scope)),
  validForDays: Type.Optional(ValidForDaysSchema(scope)),
  graceDays: Type.Optional(GraceDaysSchema(scope)),
  features: Type.Optional(FeaturesSchema(`${scope}The license's overrides, merged over the product's. `, true)),
  revealReasons: Type.Optional(LicenseRevealReasonsSchema(scope)),
});

/** The license's tier and whether it is a trial (request bodies). */
const saleInput = (omitted: string) => ({
  tier: Type.Optional(
    Type.Union([Type.String({ pattern: TIERS.codePattern }), Type.Null()], {
      description: `A code of the product's tiers (400 otherwise); null: the base. ${omitted}`,
      examples: ['pro'],
    }),
  ),
  trial: Type.Optional(Type.Boolean({ description: `A trial: a sale of the product converts it (same key). ${omitted}`, examples: [false] })),
});

const LICENSE_SHARING_ALERT = SharingAlertSchema("The license's own; null (or omitted): its product's, read live. ");

const SlotLimit = (setting: 'maxIps' | 'maxHwids', what: string) =>
  SlotLimitSchema(setting, `Most ${what} that may be bound; null means unlimited`, 3);

const Expiry = NullableInteger({
  minimum: -Number.MAX_SAFE_INTEGER,
  maximum: Number.MAX_SAFE_INTEGER,
  description: 'Epoch millis at which the license stops validating; null means perpetual',
  examples: [1893456000000],
});

export const ValidationAttemptSchema = Type.Object({
  hwid: Type.String({ description: 'Hardware id the client presented' }),
  ip: Type.String({ description: 'Client IP address the request came from' }),
  timestampEpochMillis: Type.Number({ description: 'When the attempt was made' }),
  successful: Type.Boolean({ description: 'Whether the license validated' }),
  reason: Type.Unsafe<Reason>({
    type: 'string',
    enum: [...REASONS],
    description:
      'First check that failed, or VALID (GRACE: valid in the grace days; UNKNOWN only for failed attempts imported through PUT without a reason)',
  }),
});
export type ValidationAttempt = Static<typeof ValidationAttemptSchema>;

export const BindingSchema = Type.Object({
  value: Type.String({ description: 'The bound IP address or hardware id' }),
  firstSeenAtEpochMillis: Type.Number({ description: 'When it was bound (by a validation or a PUT)' }),
  lastSeenAtEpochMillis: Type.Number({
    description: 'The last successful validation that presented it (recorded to the second), or when a PUT added it',
  }),
});
export type Binding = Static<typeof BindingSchema>;

export const LicenseSchema = Type.Object({
  id: Type.String({ description: 'The license key that client software presents', pattern: LICENSE_KEY_PATTERN }),
  productId: Type.String({ description: 'Product the license is for' }),
  customerId: Type.String({ description: 'Owning customer' }),
  expiresAtEpochMillis: Expiry,
  maxIps: SlotLimit('maxIps', 'IP addresses'),
  maxHwids: SlotLimit('maxHwids', 'hardware ids'),
  usedIps: Type.Array(Type.String(), { description: 'Bound IP addresses, in binding order' }),
  usedHwids: Type.Array(Type.String(), { description: 'Bound hardware ids, in binding order' }),
  slotTimeoutMinutes: SlotTimeoutMinutesSchema(''),
  selfReleaseLimit: SelfReleaseLimitSchema(''),
  sharingAlert: LICENSE_SHARING_ALERT,
  sharingSuspectedAtEpochMillis: NullableInteger({
    description: 'When shared-key detection suspected the license (POST /licenses/{id}/sharing/clear clears it); null: not suspected',
  }),
  bindings: Type.Object(
    {
      ips: Type.Array(BindingSchema, { description: 'The bound IP addresses, in the order of usedIps' }),
      hwids: Type.Array(BindingSchema, { description: 'The bound hardware ids, in the order of usedHwids' }),
    },
    { description: 'usedIps and usedHwids with when each was bound and last seen' },
  ),
  revokedAtEpochMillis: NullableInteger({
    description: 'When the license was revoked (its expiry was set to that moment); null when not revoked',
  }),
  revokedReason: NullableString({ description: 'Why it was revoked (e.g. refund); null when not revoked or not said' }),
  expiryBasis: ExpiryBasisSchema(''),
  validForDays: ValidForDaysSchema(''),
  expiryStartedAtEpochMillis: NullableInteger({
    description:
      'When the expiry clock started (creation, the first passing validation, or staff setting an expiry); null with expiryBasis fixed, and for a firstValidation license not yet started',
  }),
  graceDays: GraceDaysSchema(''),
  updatesUntilEpochMillis: UpdatesUntilSchema(''),
  features: FeaturesSchema("The license's own overrides (a null value removes the product's key). ", true),
  effectiveFeatures: EffectiveFeaturesSchema,
  tier: NullableString({ description: "A code of the product's tiers (its features merge between the product's and the license's); null: the base" }),
  trial: Type.Boolean({ description: 'A trial: a sale of the product converts it, keeping the key' }),
  status: Type.Unsafe<LicenseStatus>({
    type: 'string',
    enum: [...LICENSE_STATUSES],
    description:
      'revoked; else expired (past its expiry and any grace); grace (past its expiry, within graceDays); notStarted (a ' +
      'firstValidation clock not started); else active',
  }),
  revealReasons: LicenseRevealReasonsSchema(''),
  selfReleasesUsed: Type.Integer({ description: 'Self-service releases counted in the last 30 days' }),
  selfReleasesLeft: NullableInteger({
    description: 'How many more self-service releases the rolling 30 days allow now; null when self-service release is off',
  }),
  version: Type.Integer({ description: 'Starts at 1; every successful PUT adds 1 (validation never changes it)' }),
  validationAttempts: Type.Array(ValidationAttemptSchema, {
    description: 'Most recent validation attempts (VALIDATION_HISTORY_MAX, default 1000), oldest first',
  }),
  createdAtEpochMillis: Type.Number({ description: 'When the license was issued' }),
});
export type License = Static<typeof LicenseSchema>;

const ProductId = Type.String({ minLength: 1, description: 'Id of an existing product' });
const CustomerId = Type.String({ minLength: 1, description: 'Id of an existing customer' });

export const CreateLicenseBodySchema = Type.Object({
  productId: ProductId,
  customerId: CustomerId,
  expiresAtEpochMillis: Type.Optional(Expiry),
  maxIps: Type.Optional(SlotLimit('maxIps', "IP addresses (omitted: the product's default)")),
  maxHwids: Type.Optional(SlotLimit('maxHwids', "hardware ids (omitted: the product's default)")),
  slotTimeoutMinutes: Type.Optional(SlotTimeoutMinutesSchema("Omitted: the product's default. ")),
  selfReleaseLimit: Type.Optional(SelfReleaseLimitSchema("Omitted: the product's default. ")),
  ...policyInput("Omitted: the product's default (features: {}, revealReasons: null). "),
  sharingAlert: Type.Optional(LICENSE_SHARING_ALERT),
  ...saleInput('Omitted: null / false.'),
  updatesUntilEpochMillis: Type.Optional(UpdatesUntilSchema("Omitted: now plus the product's updatesForDays (null when it has none). ")),
});
export type CreateLicenseBody = Static<typeof CreateLicenseBodySchema>;

const AttemptInputSchema = Type.Object({
  hwid: Type.String({ maxLength: 1024 }),
  ip: Type.String({ maxLength: 1024 }),
  timestampEpochMillis: Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER }),
  successful: Type.Boolean(),
  reason: Type.Optional(
    Type.Unsafe<Reason>({
      type: 'string',
      enum: [...REASONS],
      description: 'Defaults to VALID for successful attempts and UNKNOWN otherwise',
    }),
  ),
});
export type AttemptInput = Static<typeof AttemptInputSchema>;

const BoundList = (what: string) =>
  Type.Array(Type.String({ maxLength: 1024 }), {
    maxItems: 10_000,
    description: `The complete list of bound ${what} (omitted = none); duplicates are dropped`,
    examples: [[]],
  });

export const UpdateLicenseBodySchema = Type.Object({
  productId: ProductId,
  customerId: CustomerId,
  version: Type.Integer({ minimum: -MAX_INT - 1, maximum: MAX_INT, description: 'The version you read; a different stored version is 409', examples: [1] }),
  expiresAtEpochMillis: Type.Optional(Expiry),
  maxIps: Type.Optional(SlotLimit('maxIps', 'IP addresses')),
  maxHwids: Type.Optional(SlotLimit('maxHwids', 'hardware ids')),
  slotTimeoutMinutes: Type.Optional(SlotTimeoutMinutesSchema('Omitted: null. ')),
  selfReleaseLimit: Type.Optional(SelfReleaseLimitSchema('Omitted: null. ')),
  ...policyInput('Omitted: null (expiryBasis fixed, features {}). '),
  sharingAlert: Type.Optional(LICENSE_SHARING_ALERT),
  ...saleInput('Omitted: null / false.'),
  updatesUntilEpochMillis: Type.Optional(UpdatesUntilSchema('Omitted: null. ')),
  usedIps: Type.Optional(BoundList('IP addresses')),
  usedHwids: Type.Optional(BoundList('hardware ids')),
  validationAttempts: Type.Optional(
    Type.Array(AttemptInputSchema, {
      maxItems: 100_000,
      description: 'The complete attempt history (omitted = none); only the most recent VALIDATION_HISTORY_MAX are kept',
    }),
  ),
});
export type UpdateLicenseBody = Static<typeof UpdateLicenseBodySchema>;

/** PATCH: any fields of PUT's body; `version` optional (given: a mismatch is 409). */
export const PatchLicenseBodySchema = Type.Partial(UpdateLicenseBodySchema, {
  description:
    'Fields given are set (null clears), the others are kept; `usedIps`, `usedHwids` and `validationAttempts` change only when given. ' +
    'With `version`, a different stored version is 409. At least one field.',
  minProperties: 1,
  examples: [{ graceDays: 3, features: { seats: 10 } }],
});
export type PatchLicenseBody = Static<typeof PatchLicenseBodySchema>;

export const ListLicensesQuerySchema = Type.Object({
  customerId: Type.Optional(Type.String({ description: 'Only licenses of this customer' })),
  productId: Type.Optional(Type.String({ description: 'Only licenses for this product' })),
  key: Type.Optional(
    Type.String({ maxLength: 200, description: 'Only licenses whose key contains this text (ignoring case)', examples: ['9XW2M'] }),
  ),
  status: Type.Optional(
    Type.String({
      maxLength: 100,
      description:
        `Only licenses in one of these states now, comma-separated: ${LICENSE_STATUSES.join(', ')} (as a license body's \`status\`)`,
      examples: ['active,grace'],
    }),
  ),
  trial: Type.Optional(Type.Boolean({ description: 'true: only trials; false: only licenses that are not trials' })),
  sharing: Type.Optional(
    Type.Unsafe<'suspected'>({ type: 'string', enum: ['suspected'], description: 'suspected: only licenses suspected of sharing (not cleared)' }),
  ),
  ...PageQueryProperties,
  ...SortQueryProperties(['createdAt', 'expiresAt']),
});
export type ListLicensesQuery = Static<typeof ListLicensesQuerySchema>;

/** A release version: 1-64 of `0-9 A-Z a-z . + _ -`, starting alphanumeric (releases, validation, update checks). */
export const VersionSchema = (description: string) =>
  Type.String({ pattern: RELEASE_VERSION.pattern, maxLength: RELEASE_VERSION.maxLength, description, examples: ['1.4.2'] });

export const ValidateBodySchema = Type.Object({
  licenseId: Type.String({ description: 'The license key', examples: ['7K3QD-9XW2M-PA4ZR-0HT6B-N5YCE'] }),
  productId: Type.String({ description: 'Product the client software belongs to' }),
  hwid: Type.String({ maxLength: 1024, description: 'Hardware id of the machine', examples: ['machine-42'] }),
  nonce: Type.Optional(
    Type.String({
      pattern: '^[A-Za-z0-9_-]{16,128}$',
      description:
        'Fresh random value per request (16–128 of A-Z a-z 0-9 - _). With it, the 200 answer carries a signed `Validation-Receipt` header that repeats it.',
      examples: ['q0Zk8mX3vT1pR7sYc2Wn5uHa9JbLd4Ee'],
    }),
  ),
  version: Type.Optional(
    VersionSchema(
      'The version of the client software (recorded with the attempt). With the product\'s refuseUnsupportedVersions, an archived or ' +
        'unknown version is refused (VERSION_NOT_SUPPORTED) and a deprecated one validates with `"deprecated": true` in the signed receipt.',
    ),
  ),
  receiptFormat: Type.Optional(
    Type.Literal('batch', {
      description:
        'With a nonce: `batch` asks for the batch-signed receipt `hdr..sig~claims~idx~path` (typ validation-receipt+mt; one ' +
        'signature covers a Merkle tree of the answers committed together). Absent: the receipt is the compact JWS. Without a nonce it changes nothing.',
    }),
  ),
});
export type ValidateBody = Static<typeof ValidateBodySchema>;

export const ValidateResultSchema = Type.Object({
  valid: Type.Boolean({ description: 'Whether the license may be used' }),
  reason: Type.Optional(
    Type.Unsafe<Exclude<Reason, 'UNKNOWN'>>({
      type: 'string',
      enum: ANSWER_REASONS,
      description:
        "Only when the license's revealReasons (or its product's) is true: VALID, GRACE (valid, in the grace days), or the " +
        'first check that failed. Never for an unknown license.',
    }),
  ),
});

export const LicenseFileBodySchema = Type.Object({
  validForDays: Type.Optional(Type.Integer({ minimum: 1, maximum: 3650, description: 'How long the file is valid offline (default 365)' })),
});

export const LicenseFileSchema = Type.Object({
  licenseFile: Type.String({ description: 'Compact JWS (EdDSA, typ license-file) verifiable with the JWK Set' }),
  validUntilEpochMillis: Type.Integer({ description: 'When the file stops being valid (the license may expire earlier)' }),
});

const ReleaseValue = (what: string) =>
  Type.String({ minLength: 1, maxLength: 1024, description: `The ${what} to unbind, if it is bound` });

export const ReleaseBodySchema = Type.Object(
  {
    licenseId: Type.String({ minLength: 1, description: 'The license key', examples: ['7K3QD-9XW2M-PA4ZR-0HT6B-N5YCE'] }),
    productId: Type.String({ minLength: 1, description: 'Product the client software belongs to' }),
    hwid: Type.Optional(ReleaseValue('hardware id')),
    ip: Type.Optional(ReleaseValue('IP address')),
  },
  { description: 'At least one of hwid and ip' },
);
export type ReleaseBody = Static<typeof ReleaseBodySchema>;

export const ReleaseResultSchema = Type.Object({
  releasedIps: Type.Array(Type.String(), { description: 'The named IPs that were bound and are now free' }),
  releasedHwids: Type.Array(Type.String(), { description: 'The named hardware ids that were bound and are now free' }),
  selfReleasesLeft: Type.Integer({ description: 'Self-service releases the rolling 30 days still allow' }),
});
export type ReleaseResult = Static<typeof ReleaseResultSchema>;

export const RevokeBodySchema = Type.Object(
  { reason: Type.Optional(Type.String({ minLength: 1, maxLength: 500, description: 'Why (shown on the license and in the audit log)', examples: ['refund'] })) },
  { description: 'Optional' },
);
export type RevokeBody = Static<typeof RevokeBodySchema>;
