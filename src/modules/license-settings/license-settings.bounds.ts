// The settings a license takes from its product, declared once: for each, whether the
// product's value is copied into the license when it is created (later product changes
// leave the license alone) or read live (the license's own value, else the product's, at
// every use), and the bounds a value must keep. No imports: the portal builds this file in
// too, so its forms show the server's bounds (license-settings.ts adds the resolvers and
// the columns, license-settings.schemas.ts the API schemas).

/** Largest value a PostgreSQL `integer` column holds. */
export const MAX_INT = 2_147_483_647;

export const EXPIRY_BASES = ['fixed', 'creation', 'firstValidation'] as const;
export type ExpiryBasis = (typeof EXPIRY_BASES)[number];

/** Self-service releases count over this many days (a rolling window). */
export const SELF_RELEASE_WINDOW_DAYS = 30;

/** A feature key: a-z 0-9 . _ - (starting with a letter or digit), at most this long. */
export const FEATURE_KEY_MAX_LENGTH = 64;

export const LICENSE_SETTINGS = {
  maxIps: { inherit: 'copied', minimum: 0, maximum: MAX_INT },
  maxHwids: { inherit: 'copied', minimum: 0, maximum: MAX_INT },
  slotTimeoutMinutes: { inherit: 'copied', minimum: 1, maximum: MAX_INT },
  selfReleaseLimit: { inherit: 'copied', minimum: 1, maximum: MAX_INT },
  expiryBasis: { inherit: 'copied', values: EXPIRY_BASES },
  validForDays: { inherit: 'copied', minimum: 1, maximum: 36500 },
  graceDays: { inherit: 'copied', minimum: 1, maximum: 365 },
  features: { inherit: 'live', maxKeys: 64, keyPattern: `^[a-z0-9][a-z0-9._-]{0,${FEATURE_KEY_MAX_LENGTH - 1}}$`, maxStringLength: 256 },
  revealReasons: { inherit: 'live' },
  sharingAlert: { inherit: 'live', distinct: { minimum: 1, maximum: 1_000_000 }, windowHours: { minimum: 1, maximum: 168 } },
} as const;

/**
 * Tiers (docs/selling.md): a product's named feature sets, sold under their own marketplace
 * ids; a license at a tier takes the tier's features live, over the product's.
 */
export const TIERS = { maxTiers: 16, codePattern: '^[a-z0-9][a-z0-9_-]{0,31}$', maxNameLength: 100 } as const;

/**
 * Releases: the days of updates a sale includes. A product setting a license takes once, at its
 * creation (or sale), as `updatesUntilEpochMillis` = then + these days; a renewal moves that by
 * the period like the expiry (license-settings.ts). Declared apart from LICENSE_SETTINGS: the
 * license carries a moment, not the setting.
 */
export const UPDATES_FOR_DAYS = { minimum: 0, maximum: 36500 } as const;

export type LicenseSetting = keyof typeof LICENSE_SETTINGS;
type Inherited<How> = { [K in LicenseSetting]: (typeof LICENSE_SETTINGS)[K]['inherit'] extends How ? K : never }[LicenseSetting];
export type CopiedSetting = Inherited<'copied'>;
export type LiveSetting = Inherited<'live'>;

export const COPIED_SETTINGS = (Object.keys(LICENSE_SETTINGS) as LicenseSetting[]).filter(
  (key) => LICENSE_SETTINGS[key].inherit === 'copied',
) as CopiedSetting[];

/** Whether the basis runs a clock (creation, firstValidation): then validForDays is required, and must be null without one. */
export const hasClock = (basis: ExpiryBasis | '' | undefined): boolean => basis === 'creation' || basis === 'firstValidation';

/** What is wrong with an expiry basis and length together, or null. */
export function expiryPolicyProblem(basis: ExpiryBasis, validForDays: number | null): string | null {
  if (hasClock(basis) && validForDays === null) return `validForDays is required with expiryBasis ${basis}`;
  if (!hasClock(basis) && validForDays !== null) return 'validForDays must be null with expiryBasis fixed';
  return null;
}
