// Issue a license: customer, product (and tier), expiry, trial, and the IP/HWID limits. It
// shows the limits the chosen product gives; an override is sent only when "custom" is
// chosen. Choosing a subscription product fills the expiry with one billing period from now
// (editable; a date typed by hand is kept).
import { useState, type FormEvent } from 'react';
import { CheckboxField, SelectField, TextField } from '../../../components/field';
import { Notice } from '../../../components/status';
import { CustomerSelect } from '../../customers/components/customer-select';
import { useCheckedForm } from '../../../hooks/use-checked-form';
import { optionalWholeNumber, required } from '../../../lib/form-checks';
import { formatLimit, formatSelfReleaseLimit, formatSlotTimeout, fromDateTimeLocal, toDateTimeLocal } from '../../../lib/format';
import { optionalInteger } from '../../../lib/form-values';
import type { Customer, LicenseCreateInput, Product, ProductName } from '../../../types/api';
import { LICENSE_SETTINGS, hasClock } from '../../../lib/from-server';
import { SELF_RELEASE_HINT, SELF_RELEASE_LABEL, SLOT_TIMEOUT_HINT } from '../slot-setting-hints';
import { LimitChoice, type LimitValue } from './limit-choice';
import { checkFeatureRows, featuresFromRows, flagValue, subscriptionExpiry, type ExpiryBasis, type FeatureRow } from '../policy-values';
import { BASIS_LABELS, ExpiryBasisFields, FeatureChips, FeaturesEditor, GRACE_DAYS_HINT, RevealReasonsField } from './policy-fields';

const FIELDS = ['customerId', 'productId', 'tier', 'trial', 'expiresAtEpochMillis', 'maxIps', 'maxHwids', 'slotTimeoutMinutes', 'selfReleaseLimit', 'expiryBasis', 'validForDays', 'graceDays', 'features', 'revealReasons'] as const;

export function LicenseCreateForm({
  customers,
  products,
  initialCustomerId = '',
  saving,
  error,
  onSubmit,
}: {
  customers: Customer[];
  /** Full products show their limits; names only (GET /products/names) still allow issuing. */
  products: (ProductName & Partial<Product>)[];
  initialCustomerId?: string;
  saving: boolean;
  error: unknown;
  onSubmit: (input: LicenseCreateInput) => void;
}) {
  const [customerId, setCustomerId] = useState(initialCustomerId);
  const [productId, setProductId] = useState('');
  const [expires, setExpires] = useState('');
  /** The expiry the form filled from a subscription's period (replaced when the product changes, unless edited). */
  const [filledExpiry, setFilledExpiry] = useState<{ value: string; days: number } | null>(null);
  const [tier, setTier] = useState('');
  const [trial, setTrial] = useState(false);
  const [maxIps, setMaxIps] = useState<LimitValue>({ useDefault: true, text: '' });
  const [maxHwids, setMaxHwids] = useState<LimitValue>({ useDefault: true, text: '' });
  const [slotTimeout, setSlotTimeout] = useState<LimitValue>({ useDefault: true, text: '' });
  const [selfReleases, setSelfReleases] = useState<LimitValue>({ useDefault: true, text: '' });
  const [basis, setBasis] = useState<ExpiryBasis | ''>('');
  const [validForDays, setValidForDays] = useState('');
  const [graceDays, setGraceDays] = useState<LimitValue>({ useDefault: true, text: '' });
  const [features, setFeatures] = useState<FeatureRow[]>([]);
  const [revealReasons, setRevealReasons] = useState<'true' | 'false' | ''>('');
  const clock = hasClock(basis);
  const errors = useCheckedForm(
    {
      customerId,
      productId,
      expiresAtEpochMillis: expires,
      maxIps: maxIps.useDefault ? '' : maxIps.text,
      maxHwids: maxHwids.useDefault ? '' : maxHwids.text,
      slotTimeoutMinutes: slotTimeout.useDefault ? '' : slotTimeout.text,
      selfReleaseLimit: selfReleases.useDefault ? '' : selfReleases.text,
      validForDays: clock ? validForDays : '',
      graceDays: graceDays.useDefault ? '' : graceDays.text,
      features: JSON.stringify(features),
    },
    {
      customerId: (text) => (text ? null : 'Choose a customer.'),
      productId: (text) => (text ? null : 'Choose a product.'),
      maxIps: optionalWholeNumber,
      maxHwids: optionalWholeNumber,
      slotTimeoutMinutes: optionalWholeNumber,
      selfReleaseLimit: optionalWholeNumber,
      validForDays: (text) => (clock && text.trim() === '' ? 'Required with this expiry basis.' : optionalWholeNumber(text)),
      graceDays: optionalWholeNumber,
      features: () => checkFeatureRows(features),
    },
    error,
    FIELDS,
  );
  const product = products.find((p) => p.id === productId);
  const chooseProduct = (id: string) => {
    setProductId(id);
    setTier('');
    const chosen = products.find((p) => p.id === id);
    const at = subscriptionExpiry(chosen, Date.now());
    // Only an empty expiry or one filled here is replaced: a date typed by hand stays.
    if (expires !== '' && expires !== filledExpiry?.value) return;
    const value = at === null ? '' : toDateTimeLocal(at);
    setExpires(value);
    setFilledExpiry(at === null ? null : { value, days: chosen!.recurringPeriodDays! });
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!errors.check()) return;
    const input: LicenseCreateInput = { customerId, productId, expiresAtEpochMillis: fromDateTimeLocal(expires) };
    if (tier !== '') input.tier = tier;
    if (trial) input.trial = true;
    if (!maxIps.useDefault) input.maxIps = optionalInteger(maxIps.text) as number | null;
    if (!maxHwids.useDefault) input.maxHwids = optionalInteger(maxHwids.text) as number | null;
    if (!slotTimeout.useDefault) input.slotTimeoutMinutes = optionalInteger(slotTimeout.text) as number | null;
    if (!selfReleases.useDefault) input.selfReleaseLimit = optionalInteger(selfReleases.text) as number | null;
    // Policy: sent only when chosen here; otherwise the product's defaults apply.
    if (basis !== '') {
      input.expiryBasis = basis;
      input.validForDays = clock ? (optionalInteger(validForDays) as number | null) : null;
      // A clock counts from creation or first use: no fixed date with it.
      if (clock && expires === '') delete input.expiresAtEpochMillis;
    } else if (expires === '' && product?.expiryBasis && product.expiryBasis !== 'fixed') {
      delete input.expiresAtEpochMillis; // the product's clock decides
    }
    if (!graceDays.useDefault) input.graceDays = optionalInteger(graceDays.text) as number | null;
    if (features.length > 0) input.features = featuresFromRows(features);
    if (revealReasons !== '') input.revealReasons = flagValue(revealReasons);
    onSubmit(input);
  };

  return (
    <form className="form card" onSubmit={submit} noValidate>
      {errors.form ? <Notice tone="warning">{errors.form}</Notice> : null}
      <div className="form-grid">
        <CustomerSelect customers={customers} value={customerId} onChange={setCustomerId} error={errors.fields.customerId} />
        <SelectField label="Product" required value={productId} onChange={(e) => chooseProduct(e.target.value)} error={errors.fields.productId}>
          <option value="">Choose a product…</option>
          {products.map((p) => (
            <option key={p.id} value={p.id}>
              {p.name}
            </option>
          ))}
        </SelectField>
        <TextField
          label="Expires at"
          type="datetime-local"
          value={expires}
          onChange={(e) => setExpires(e.target.value)}
          error={errors.fields.expiresAtEpochMillis}
          hint={
            filledExpiry && expires === filledExpiry.value
              ? `One billing period (${filledExpiry.days} days) of ${product?.name ?? 'the product'} from now; change it if needed.`
              : 'Empty = perpetual (never expires).'
          }
        />
        {product?.tiers && product.tiers.length > 0 ? (
          <SelectField label="Tier" value={tier} onChange={(e) => setTier(e.target.value)} error={errors.fields.tier} hint="Its features merge over the product's.">
            <option value="">Base (no tier)</option>
            {product.tiers.map((t) => (
              <option key={t.code} value={t.code}>
                {t.name} ({t.code})
              </option>
            ))}
          </SelectField>
        ) : null}
      </div>
      <CheckboxField
        label="Trial"
        checked={trial}
        onChange={(e) => setTrial(e.target.checked)}
        hint="A sale of the product converts it: the same key, with the expiry a new sale gives."
      />
      {product && product.maxIps !== undefined ? (
        <p className="product-limits" data-testid="product-limits">
          {product.name} gives each license: <strong>Max IPs {formatLimit(product.maxIps)}</strong>,{' '}
          <strong>Max HWIDs {formatLimit(product.maxHwids)}</strong>.
        </p>
      ) : (
        <p className="muted">Choose a product to see the limits it gives.</p>
      )}
      <div className="form-grid">
        <LimitChoice label="Max IPs" bounds={LICENSE_SETTINGS.maxIps} productLimit={product?.maxIps} value={maxIps} onChange={setMaxIps} error={errors.fields.maxIps} />
        <LimitChoice label="Max HWIDs" bounds={LICENSE_SETTINGS.maxHwids} productLimit={product?.maxHwids} value={maxHwids} onChange={setMaxHwids} error={errors.fields.maxHwids} />
        <LimitChoice label="Free idle slots after (minutes)" bounds={LICENSE_SETTINGS.slotTimeoutMinutes} productLimit={product?.slotTimeoutMinutes} value={slotTimeout} onChange={setSlotTimeout} error={errors.fields.slotTimeoutMinutes} format={formatSlotTimeout} hint={SLOT_TIMEOUT_HINT} />
        <LimitChoice label={SELF_RELEASE_LABEL} bounds={LICENSE_SETTINGS.selfReleaseLimit} productLimit={product?.selfReleaseLimit} value={selfReleases} onChange={setSelfReleases} error={errors.fields.selfReleaseLimit} format={formatSelfReleaseLimit} hint={SELF_RELEASE_HINT} />
      </div>
      <fieldset>
        <legend>Policy</legend>
        <div className="form-grid">
          <ExpiryBasisFields
            basis={basis}
            days={validForDays}
            onBasis={setBasis}
            onDays={setValidForDays}
            errors={{ expiryBasis: errors.fields.expiryBasis, validForDays: errors.fields.validForDays }}
            inherit={product?.expiryBasis ? `${BASIS_LABELS[product.expiryBasis]}${product.validForDays ? `, ${product.validForDays} days` : ''}` : ''}
          />
          <RevealReasonsField value={revealReasons} onChange={setRevealReasons} error={errors.fields.revealReasons} productValue={product?.revealReasons} />
        </div>
        <LimitChoice
          label="Grace days"
          bounds={LICENSE_SETTINGS.graceDays}
          productLimit={product?.graceDays}
          value={graceDays}
          onChange={setGraceDays}
          error={errors.fields.graceDays}
          format={(days) => (days === null ? 'none' : `${days} days`)}
          hint={GRACE_DAYS_HINT}
        />
        {product?.features && Object.keys(product.features).length > 0 ? (
          <p className="muted" data-testid="product-features">
            {product.name} unlocks: <FeatureChips features={product.features} />
          </p>
        ) : null}
        <FeaturesEditor
          legend="Feature overrides"
          rows={features}
          onChange={setFeatures}
          error={errors.fields.features}
          allowRemove
          hint="Merged over the product's features key by key; “Remove product key” takes one of the product's away from this license."
        />
      </fieldset>
      <div className="actions">
        <button type="submit" className="button button-primary" disabled={saving}>
          {saving ? 'Issuing…' : 'Issue license'}
        </button>
      </div>
    </form>
  );
}
