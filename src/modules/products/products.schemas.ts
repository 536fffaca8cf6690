import { Type, type Static } from '@sinclair/typebox';
import { NullableInteger, NullableString, PageQueryProperties, SortQueryProperties } from '../../http/schemas.js';
import { MAX_INT } from '../license-settings/license-settings.bounds.js';
import {
  ExpiryBasisSchema,
  FeaturesSchema,
  GraceDaysSchema,
  SelfReleaseLimitSchema,
  SharingAlertSchema,
  SlotLimitSchema,
  SlotTimeoutMinutesSchema,
  TiersSchema,
  UpdatesForDaysSchema,
  ValidForDaysSchema,
} from '../license-settings/license-settings.schemas.js';
/** Keeps amounts finite: JSON numbers such as 1e400 parse to Infinity. */
export const MAX_AMOUNT = Number.MAX_SAFE_INTEGER;

const PRODUCT_SHARING_ALERT = SharingAlertSchema(
  "Applies live to every license of the product that has none of its own (null: off; not copied into licenses). ",
);

const REFUSE_UNSUPPORTED =
  'Whether validation refuses a `version` that is archived or not among the product\'s releases (reason VERSION_NOT_SUPPORTED); ' +
  'a deprecated version validates and its signed receipt says `"deprecated": true`. A request naming no version is never refused for it';

const slotLimit = (setting: 'maxIps' | 'maxHwids', what: string) => SlotLimitSchema(setting, `${what}; null means unlimited`, 2);

export const ProductSchema = Type.Object({
  id: Type.String({ description: 'Product id (UUIDv7)' }),
  name: Type.String(),
  productType: Type.String({ description: 'Category, for example `software` or `desktop`' }),
  description: NullableString({ description: 'null when unset' }),
  price: Type.Number({ description: "In the account's base currency" }),
  requiresLicense: Type.Boolean(),
  isSubscription: Type.Boolean(),
  recurringPeriodDays: NullableInteger({ description: 'Days per billing cycle; null when unset' }),
  maxIps: NullableInteger({ description: 'Default IP slot limit of new licenses; null means unlimited' }),
  maxHwids: NullableInteger({ description: 'Default HWID slot limit of new licenses; null means unlimited' }),
  marketplaceResourceId: NullableString({ description: 'Marketplace resource id the webhook matches; null when unset' }),
  polymartProductId: NullableString({ description: 'Polymart product id the Polymart integration matches; null when unset' }),
  slotTimeoutMinutes: SlotTimeoutMinutesSchema('Default for new licenses. '),
  selfReleaseLimit: SelfReleaseLimitSchema('Default for new licenses. '),
  expiryBasis: ExpiryBasisSchema('Default for new licenses. '),
  validForDays: ValidForDaysSchema('Default for new licenses. '),
  graceDays: GraceDaysSchema('Default for new licenses. '),
  features: FeaturesSchema("The tier: applies live to the product's licenses (not copied). ", false),
  revealReasons: Type.Boolean({
    description: "Whether validation answers carry `reason` for this product's licenses whose own revealReasons is null (read live)",
  }),
  sharingAlert: PRODUCT_SHARING_ALERT,
  tiers: TiersSchema('Named feature sets of the product, each sold under its own marketplace ids. '),
  updatesForDays: UpdatesForDaysSchema(''),
  refuseUnsupportedVersions: Type.Boolean({ description: REFUSE_UNSUPPORTED }),
  createdAtEpochMillis: Type.Number({ description: 'When the product was created' }),
});
export type Product = Static<typeof ProductSchema>;

export const ProductBodySchema = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 200, examples: ['Acme Desktop'] }),
    productType: Type.String({
      minLength: 1,
      maxLength: 100,
      description: 'Category, for example `software` or `desktop`',
      examples: ['software'],
    }),
    description: Type.Optional(NullableString({ maxLength: 10_000, examples: ['The desktop app, one seat'] })),
    price: Type.Number({ minimum: 0, maximum: MAX_AMOUNT, description: "In the account's base currency", examples: [19.99] }),
    requiresLicense: Type.Boolean({ examples: [true] }),
    isSubscription: Type.Boolean({ examples: [false] }),
    recurringPeriodDays: Type.Optional(
      NullableInteger({
        minimum: 0,
        maximum: MAX_INT,
        description: 'Days per billing cycle; relevant only when isSubscription is true',
        examples: [30],
      }),
    ),
    maxIps: Type.Optional(slotLimit('maxIps', 'Default IP slot limit for licenses of this product')),
    maxHwids: Type.Optional(slotLimit('maxHwids', 'Default HWID slot limit for licenses of this product')),
    marketplaceResourceId: Type.Optional(
      NullableString({
        minLength: 1,
        maxLength: 200,
        description: 'Marketplace resource id the webhook matches against `resource_id`; unique among products (409 otherwise)',
        examples: ['12345'],
      }),
    ),
    polymartProductId: Type.Optional(
      NullableString({
        minLength: 1,
        maxLength: 200,
        description:
          "Polymart product (resource) id the Polymart integration matches against a purchase's `payload.product.id`; " +
          'unique among products (409 otherwise)',
        examples: ['4321'],
      }),
    ),
    slotTimeoutMinutes: Type.Optional(SlotTimeoutMinutesSchema('Default for licenses created afterwards. ')),
    selfReleaseLimit: Type.Optional(SelfReleaseLimitSchema('Default for licenses created afterwards. ')),
    expiryBasis: Type.Optional(ExpiryBasisSchema('Default for licenses created afterwards (omitted: fixed). ')),
    validForDays: Type.Optional(ValidForDaysSchema('Default for licenses created afterwards. ')),
    graceDays: Type.Optional(GraceDaysSchema('Default for licenses created afterwards. ')),
    features: Type.Optional(FeaturesSchema("The tier (omitted: {}): applies live to the product's licenses. ", false)),
    revealReasons: Type.Optional(
      Type.Boolean({ description: 'Validation answers carry `reason` (omitted: false); licenses may override it', examples: [false] }),
    ),
    sharingAlert: Type.Optional(PRODUCT_SHARING_ALERT),
    tiers: Type.Optional(TiersSchema('Omitted: [] (PUT), kept (PATCH). ')),
    updatesForDays: Type.Optional(UpdatesForDaysSchema('Applies to licenses created (or sold) afterwards. ')),
    refuseUnsupportedVersions: Type.Optional(Type.Boolean({ description: `${REFUSE_UNSUPPORTED} (omitted: false)`, examples: [false] })),
  },
  {
    description:
      'A product. On PUT the whole record is replaced: omitted optional fields become null (features {}, revealReasons ' +
      'false, expiryBasis fixed). Changing maxIps or maxHwids (or slotTimeoutMinutes, selfReleaseLimit, expiryBasis, ' +
      'validForDays, graceDays) does not change existing licenses; features and revealReasons apply to them live.',
    examples: [{ name: 'Acme Desktop', productType: 'software', price: 19.99, requiresLicense: true, isSubscription: false, maxIps: 2, maxHwids: 1 }],
  },
);
export type ProductBody = Static<typeof ProductBodySchema>;

/** PATCH: any of the body's fields; those given are set, the others kept. */
export const ProductPatchSchema = Type.Partial(ProductBodySchema, {
  description: 'Any fields of a product; those given are set (null clears), the others are kept. At least one field.',
  minProperties: 1,
  examples: [{ graceDays: 3 }],
});
export type ProductPatch = Static<typeof ProductPatchSchema>;

export const ProductQuerySchema = Type.Object({
  ...PageQueryProperties,
  ...SortQueryProperties(['createdAt', 'name', 'price']),
  q: Type.Optional(
    Type.String({ maxLength: 200, description: 'Only products whose name contains this text (ignoring case)', examples: ['desktop'] }),
  ),
});
export type ProductQuery = Static<typeof ProductQuerySchema>;

export const ProductNameSchema = Type.Object(
  {
    id: Type.String({ description: 'Product id (UUIDv7)' }),
    name: Type.String({ description: 'Display name' }),
  },
  { description: 'A product as a license shows it: its id and name only' },
);
export type ProductName = Static<typeof ProductNameSchema>;
