// Add or edit one tier of a product: code, name, its features (merged over the product's),
// and the marketplace ids that sell the product at this tier. The browser checks what it can
// (bounds from the server's TIERS declaration); the API's 400/409 shows beside its field.
import { useState, type FormEvent } from 'react';
import { TextField } from '../../../components/field';
import { Notice } from '../../../components/status';
import { useCheckedForm } from '../../../hooks/use-checked-form';
import { TIERS } from '../../../lib/from-server';
import type { Tier } from '../../../types/api';
import { FeaturesEditor } from '../../licenses/components/policy-fields';
import { TIER_CODE_MAX_LENGTH, tierDraft, tierFromDraft, tierProblems, type TierDraft, type TierField } from '../tier-values';

const FIELDS = ['code', 'name', 'features', 'marketplaceResourceId', 'polymartProductId'] as const;

export function TierForm({
  tier,
  others,
  productIds,
  saving,
  error,
  onSubmit,
  onCancel,
}: {
  tier?: Tier;
  /** The product's other tiers (codes and ids must differ). */
  others: Tier[];
  productIds: { marketplaceResourceId: string | null; polymartProductId: string | null };
  saving: boolean;
  error: unknown;
  onSubmit: (tier: Tier) => void;
  onCancel: () => void;
}) {
  const [draft, setDraft] = useState<TierDraft>(tierDraft(tier));
  const problems = tierProblems(draft, others, productIds);
  const check = (field: TierField) => () => problems[field] ?? null;
  const errors = useCheckedForm(
    {
      code: draft.code,
      name: draft.name,
      features: JSON.stringify(draft.features),
      marketplaceResourceId: draft.marketplaceResourceId,
      polymartProductId: draft.polymartProductId,
    },
    { code: check('code'), name: check('name'), features: check('features'), marketplaceResourceId: check('marketplaceResourceId'), polymartProductId: check('polymartProductId') },
    error,
    FIELDS,
  );
  const text = (field: Exclude<TierField, 'features'>) => (e: { target: { value: string } }) => setDraft((old) => ({ ...old, [field]: e.target.value }));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!errors.check()) return;
    onSubmit(tierFromDraft(draft));
  };
  const label = tier ? `Edit tier ${tier.name}` : 'New tier';
  return (
    <form className="form card tier-form" onSubmit={submit} noValidate aria-label={label}>
      <h3>{label}</h3>
      {errors.form ? <Notice tone="warning">{errors.form}</Notice> : null}
      <div className="form-grid">
        <TextField label="Tier code" required value={draft.code} onChange={text('code')} error={errors.fields.code} maxLength={TIER_CODE_MAX_LENGTH} hint="What licenses store as their tier, e.g. pro." />
        <TextField label="Tier name" required value={draft.name} onChange={text('name')} error={errors.fields.name} maxLength={TIERS.maxNameLength + 20} hint={`Shown to staff, at most ${TIERS.maxNameLength} characters.`} />
        <TextField label="Tier marketplace resource id" value={draft.marketplaceResourceId} onChange={text('marketplaceResourceId')} error={errors.fields.marketplaceResourceId} hint="A BuiltByBit resource or addon that sells this tier; empty if none." />
        <TextField label="Tier Polymart product id" value={draft.polymartProductId} onChange={text('polymartProductId')} error={errors.fields.polymartProductId} hint="A Polymart product that sells this tier; empty if none." />
      </div>
      <FeaturesEditor
        legend="Tier features"
        rows={draft.features}
        onChange={(features) => setDraft((old) => ({ ...old, features }))}
        error={errors.fields.features}
        allowRemove
        hint="Merged over the product's features for licenses at this tier; “Remove product key” takes one of the product's away."
      />
      <div className="actions">
        <button type="submit" className="button button-primary" disabled={saving}>
          {saving ? 'Saving…' : tier ? 'Save tier' : 'Add tier'}
        </button>
        <button type="button" className="button" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}
