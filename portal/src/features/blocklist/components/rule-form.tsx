// Create a blocklist rule. The browser checks what it can (a value, a license key of the
// right shape); the API's 400 (a malformed address or CIDR, an unknown product or license,
// an expiry in the past) and 409 (the same rule exists) are shown beside the field they name.
import { useState, type FormEvent } from 'react';
import { SelectField, TextAreaField, TextField } from '../../../components/field';
import { Notice } from '../../../components/status';
import { useCheckedForm } from '../../../hooks/use-checked-form';
import { fromDateTimeLocal } from '../../../lib/format';
import { required, type Check } from '../../../lib/form-checks';
import type { BlocklistRule, BlocklistRuleInput, ProductName } from '../../../types/api';
import { MODE_HINT, MODE_LABELS, TYPE_LABELS, VALUE_HINTS } from '../rule-labels';

const FIELDS = ['type', 'value', 'productId', 'licenseId', 'mode', 'expiresAtEpochMillis', 'note'] as const;
type Scope = 'everything' | 'product' | 'license';

const futureOrEmpty: Check = (text) => {
  if (text.trim() === '') return null;
  const at = fromDateTimeLocal(text);
  return at === null ? 'Enter a date and time.' : at <= Date.now() ? 'Choose a time in the future, or leave it empty.' : null;
};

const EMPTY = { type: 'ip' as BlocklistRule['type'], value: '', scope: 'everything' as Scope, productId: '', licenseId: '', mode: 'block' as BlocklistRule['mode'], expires: '', note: '' };

export function RuleForm({ products, saving, error, onSubmit }: { products: ProductName[]; saving: boolean; error: unknown; onSubmit: (input: BlocklistRuleInput, reset: () => void) => void }) {
  const [v, setV] = useState(EMPTY);
  const errors = useCheckedForm(
    {
      value: v.value,
      productId: v.scope === 'product' ? v.productId : 'n/a',
      licenseId: v.scope === 'license' ? v.licenseId : 'n/a',
      expiresAtEpochMillis: v.expires,
    },
    { value: required, productId: required, licenseId: required, expiresAtEpochMillis: futureOrEmpty },
    error,
    FIELDS,
  );
  const set = (patch: Partial<typeof EMPTY>) => setV((old) => ({ ...old, ...patch }));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!errors.check()) return;
    onSubmit(
      {
        type: v.type,
        value: v.value.trim() === '' ? v.value : v.type === 'hwid' ? v.value : v.value.trim(),
        productId: v.scope === 'product' ? v.productId : null,
        licenseId: v.scope === 'license' ? v.licenseId.trim() : null,
        mode: v.mode,
        expiresAtEpochMillis: fromDateTimeLocal(v.expires),
        note: v.note.trim() === '' ? null : v.note.trim(),
      },
      () => setV(EMPTY),
    );
  };

  return (
    <form className="form card" onSubmit={submit} noValidate aria-label="New blocklist rule">
      <h2>New rule</h2>
      {errors.form ? <Notice tone="warning">{errors.form}</Notice> : null}
      <div className="form-grid">
        <SelectField label="Type" value={v.type} onChange={(e) => set({ type: e.target.value as BlocklistRule['type'] })} error={errors.fields.type}>
          {(Object.keys(TYPE_LABELS) as BlocklistRule['type'][]).map((type) => (
            <option key={type} value={type}>
              {TYPE_LABELS[type]}
            </option>
          ))}
        </SelectField>
        <TextField label="Value" required value={v.value} onChange={(e) => set({ value: e.target.value })} error={errors.fields.value} hint={VALUE_HINTS[v.type]} autoComplete="off" spellCheck={false} />
        <SelectField label="Applies to" value={v.scope} onChange={(e) => set({ scope: e.target.value as Scope })}>
          <option value="everything">Every license</option>
          <option value="product">The licenses of one product</option>
          <option value="license">One license</option>
        </SelectField>
        {v.scope === 'product' ? (
          <SelectField label="Product" value={v.productId} onChange={(e) => set({ productId: e.target.value })} error={errors.fields.productId}>
            <option value="">Choose a product</option>
            {products.map((p) => (
              <option key={p.id} value={p.id}>
                {p.name}
              </option>
            ))}
          </SelectField>
        ) : null}
        {v.scope === 'license' ? (
          <TextField label="License key" value={v.licenseId} onChange={(e) => set({ licenseId: e.target.value })} error={errors.fields.licenseId} placeholder="XXXXX-XXXXX-XXXXX-XXXXX-XXXXX" autoComplete="off" spellCheck={false} />
        ) : null}
        <SelectField label="Mode" value={v.mode} onChange={(e) => set({ mode: e.target.value as BlocklistRule['mode'] })} error={errors.fields.mode} hint={MODE_HINT}>
          {(Object.keys(MODE_LABELS) as BlocklistRule['mode'][]).map((mode) => (
            <option key={mode} value={mode}>
              {MODE_LABELS[mode]}
            </option>
          ))}
        </SelectField>
        <TextField label="Expires (optional)" type="datetime-local" value={v.expires} onChange={(e) => set({ expires: e.target.value })} error={errors.fields.expiresAtEpochMillis} hint="From then on the rule matches nothing. Empty: it stays until deleted." />
      </div>
      <TextAreaField label="Note (optional)" maxLength={1000} value={v.note} onChange={(e) => set({ note: e.target.value })} error={errors.fields.note} hint="Why: the forum post, the ticket." />
      <div className="actions">
        <button type="submit" className="button button-primary" disabled={saving}>
          {saving ? 'Adding…' : 'Add rule'}
        </button>
      </div>
    </form>
  );
}
