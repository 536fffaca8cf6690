// A product's tiers between the tier form and the API: drafts ⇄ tiers, the browser's own
// checks (bounds from the server's declaration, TIERS), and the list a save sends (PATCH
// /products/{id} with the whole `tiers` array).
import { TIERS } from '../../lib/from-server';
import type { Tier } from '../../types/api';
import { checkFeatureRows, featureRows, featuresFromRows, type FeatureRow } from '../licenses/policy-values';

export interface TierDraft {
  code: string;
  name: string;
  features: FeatureRow[];
  marketplaceResourceId: string;
  polymartProductId: string;
}

export type TierField = keyof TierDraft;

const CODE = new RegExp(TIERS.codePattern);
/** The longest code the pattern takes: its first character plus the repeat's upper bound. */
/** The longest code the pattern takes (its `{0,n}` plus the first character). */
export const TIER_CODE_MAX_LENGTH = Number(/\{0,(\d+)\}/.exec(TIERS.codePattern)?.[1] ?? 31) + 1;

export const tierDraft = (tier?: Tier): TierDraft => ({
  code: tier?.code ?? '',
  name: tier?.name ?? '',
  features: featureRows(tier?.features),
  marketplaceResourceId: tier?.marketplaceResourceId ?? '',
  polymartProductId: tier?.polymartProductId ?? '',
});

export function tierFromDraft(draft: TierDraft): Tier {
  const id = (text: string) => (text.trim() === '' ? null : text.trim());
  return {
    code: draft.code.trim(),
    name: draft.name.trim(),
    features: featuresFromRows(draft.features),
    marketplaceResourceId: id(draft.marketplaceResourceId),
    polymartProductId: id(draft.polymartProductId),
  };
}

/**
 * The draft's problems by field, in plain words. `others`: the product's other tiers (a
 * code is unique in its product); `productIds`: the product's own marketplace ids, which a
 * tier may not repeat. Ids used by other products only the server knows (its 409).
 */
export function tierProblems(draft: TierDraft, others: readonly Tier[], productIds: { marketplaceResourceId?: string | null; polymartProductId?: string | null } = {}): Partial<Record<TierField, string>> {
  const problems: Partial<Record<TierField, string>> = {};
  const code = draft.code.trim();
  if (code === '') problems.code = 'Required.';
  else if (!CODE.test(code)) problems.code = `Use lower-case letters, digits, "_" or "-" (starting with a letter or digit, at most ${TIER_CODE_MAX_LENGTH}).`;
  else if (others.some((tier) => tier.code === code)) problems.code = `Another tier of this product has the code ${code}.`;
  const name = draft.name.trim();
  if (name === '') problems.name = 'Required.';
  else if (name.length > TIERS.maxNameLength) problems.name = `At most ${TIERS.maxNameLength} characters.`;
  const features = checkFeatureRows(draft.features);
  if (features) problems.features = features;
  for (const field of ['marketplaceResourceId', 'polymartProductId'] as const) {
    const id = draft[field].trim();
    if (id === '') continue;
    if (id === productIds[field] || others.some((tier) => tier[field] === id)) problems[field] = 'This product or another of its tiers already sells under this id.';
  }
  return problems;
}

/** The tiers with `tier` in place of the one coded `replacing` (null: added at the end). */
export function withTier(tiers: readonly Tier[], replacing: string | null, tier: Tier): Tier[] {
  return replacing === null ? [...tiers, tier] : tiers.map((t) => (t.code === replacing ? tier : t));
}

export const withoutTier = (tiers: readonly Tier[], code: string): Tier[] => tiers.filter((t) => t.code !== code);

/** Whether another tier may be added (the API takes at most TIERS.maxTiers). */
export const canAddTier = (tiers: readonly Tier[]) => tiers.length < TIERS.maxTiers;
