// A product's tiers: named feature sets sold under their own marketplace ids. Each add, edit
// or removal is one PATCH of the product's whole `tiers` list; removing a tier that licenses
// hold is refused by the API (409 naming how many), and that answer shows in the dialog.
import { useState } from 'react';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { ErrorMessage, Notice } from '../../../components/status';
import { Table } from '../../../components/table';
import { TIERS } from '../../../lib/from-server';
import type { Product, Tier } from '../../../types/api';
import { FeatureChips } from '../../licenses/components/policy-fields';
import { useUpdateProduct } from '../api/update-product';
import { canAddTier, withTier, withoutTier } from '../tier-values';
import { TierForm } from './tier-form';

type Editing = { mode: 'add' } | { mode: 'edit'; tier: Tier } | null;

const featuresShown = (features: Tier['features']) => Object.fromEntries(Object.entries(features).map(([key, value]) => [key, value === null ? 'removed' : value]));

export function TiersPanel({ product, canWrite }: { product: Product; canWrite: boolean }) {
  const save = useUpdateProduct();
  const remove = useUpdateProduct();
  const [editing, setEditing] = useState<Editing>(null);
  const [removing, setRemoving] = useState<Tier | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const tiers = product.tiers;

  const open = (next: Editing) => {
    save.reset();
    setDone(null);
    setEditing(next);
  };
  const submit = (tier: Tier) => {
    const replacing = editing?.mode === 'edit' ? editing.tier.code : null;
    save.mutate(
      { id: product.id, input: { tiers: withTier(tiers, replacing, tier) } },
      { onSuccess: () => (setEditing(null), setDone(replacing === null ? `Tier ${tier.name} added.` : `Tier ${tier.name} saved.`)) },
    );
  };
  const closeRemove = () => {
    remove.reset();
    setRemoving(null);
  };

  return (
    <section className="card" aria-labelledby="tiers-title" data-testid="tiers-panel">
      <div className="section-header">
        <h2 id="tiers-title">Tiers</h2>
        {canWrite && editing === null ? (
          canAddTier(tiers) ? (
            <button type="button" className="button" onClick={() => open({ mode: 'add' })}>
              Add tier
            </button>
          ) : (
            <span className="muted">At most {TIERS.maxTiers} tiers.</span>
          )
        ) : null}
      </div>
      <p className="muted">
        A tier sells this product with more (or other) features under its own marketplace ids; a purchase of a tier&apos;s id issues, renews or moves the buyer&apos;s license to it.
      </p>
      {done ? <Notice tone="success">{done}</Notice> : null}
      {tiers.length === 0 ? (
        <p className="muted">No tiers: every license has the product&apos;s features.</p>
      ) : (
        <Table
          caption="Tiers"
          head={
            <tr>
              <th scope="col">Code</th>
              <th scope="col">Name</th>
              <th scope="col">Features</th>
              <th scope="col">Marketplace ids</th>
              {canWrite ? <th scope="col">Actions</th> : null}
            </tr>
          }
        >
          {tiers.map((tier) => (
            <tr key={tier.code} data-testid="tier-row">
              <td>
                <code>{tier.code}</code>
              </td>
              <td>{tier.name}</td>
              <td>
                <FeatureChips features={featuresShown(tier.features)} />
              </td>
              <td>
                <MarketplaceIds ids={tier} />
              </td>
              {canWrite ? (
                <td className="nowrap">
                  <button type="button" className="button button-small" onClick={() => open({ mode: 'edit', tier })}>
                    Edit <span className="visually-hidden">tier {tier.code}</span>
                  </button>{' '}
                  <button type="button" className="button button-small button-danger" onClick={() => (setDone(null), setRemoving(tier))}>
                    Remove <span className="visually-hidden">tier {tier.code}</span>
                  </button>
                </td>
              ) : null}
            </tr>
          ))}
        </Table>
      )}
      {editing ? (
        <TierForm
          key={editing.mode === 'edit' ? editing.tier.code : 'new'}
          tier={editing.mode === 'edit' ? editing.tier : undefined}
          others={editing.mode === 'edit' ? withoutTier(tiers, editing.tier.code) : tiers}
          productIds={{ marketplaceResourceId: product.marketplaceResourceId, polymartProductId: product.polymartProductId }}
          saving={save.isPending}
          error={save.error}
          onSubmit={submit}
          onCancel={() => setEditing(null)}
        />
      ) : null}
      <ConfirmDialog
        open={removing !== null}
        title={`Remove tier ${removing?.name ?? ''}?`}
        confirmLabel="Remove tier"
        danger
        busy={remove.isPending}
        onCancel={closeRemove}
        onConfirm={() =>
          removing &&
          remove.mutate(
            { id: product.id, input: { tiers: withoutTier(tiers, removing.code) } },
            { onSuccess: () => (setDone(`Tier ${removing.name} removed.`), setRemoving(null)) },
          )
        }
      >
        <p>Its marketplace ids stop selling this product. A tier that licenses still hold cannot be removed: move them to another tier first.</p>
        <ErrorMessage error={remove.error} title="Not removed:" />
      </ConfirmDialog>
    </section>
  );
}

/** "BuiltByBit 4242 · Polymart 77", or a dash. */
export function MarketplaceIds({ ids }: { ids: { marketplaceResourceId?: string | null; polymartProductId?: string | null } }) {
  const parts = [
    ids.marketplaceResourceId ? `BuiltByBit ${ids.marketplaceResourceId}` : null,
    ids.polymartProductId ? `Polymart ${ids.polymartProductId}` : null,
  ].filter((part): part is string => part !== null);
  if (parts.length === 0) return <span className="muted">—</span>;
  return (
    <>
      {parts.map((part) => (
        <span className="nowrap marketplace-id" key={part}>
          {part}
        </span>
      ))}
    </>
  );
}
