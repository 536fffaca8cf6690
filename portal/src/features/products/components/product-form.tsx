// Create or edit a product: limits (empty = unlimited), subscription period, and the
// marketplace resource id and Polymart product id the marketplace integrations match.
import { useState, type FormEvent } from 'react';
import { CheckboxField, TextAreaField, TextField } from '../../../components/field';
import { Notice } from '../../../components/status';
import { useCheckedForm } from '../../../hooks/use-checked-form';
import { amount, optionalWholeNumber, required, type Check } from '../../../lib/form-checks';
import { numberInput, optionalInteger, optionalText, requiredNumber } from '../../../lib/form-values';
import type { Product, ProductInput } from '../../../types/api';
import { LICENSE_SETTINGS, hasClock } from '../../../lib/from-server';
import { settingInput } from '../../licenses/setting-input';
import { SELF_RELEASE_HINT, SELF_RELEASE_LABEL, SLOT_TIMEOUT_HINT } from '../../licenses/slot-setting-hints';
import { ExpiryBasisFields, FeaturesEditor, GraceDaysField } from '../../licenses/components/policy-fields';
import { checkFeatureRows, featureRows, featuresFromRows, type ExpiryBasis, type FeatureRow } from '../../licenses/policy-values';

const FIELDS = ['name', 'productType', 'description', 'price', 'requiresLicense', 'isSubscription', 'recurringPeriodDays', 'maxIps', 'maxHwids', 'slotTimeoutMinutes', 'selfReleaseLimit', 'marketplaceResourceId', 'polymartProductId', 'sharingAlert', 'expiryBasis', 'validForDays', 'graceDays', 'features', 'revealReasons'] as const;

const { distinct: DISTINCT, windowHours: WINDOW_HOURS } = LICENSE_SETTINGS.sharingAlert;

/** Shared-key alert: at least one limit, and then a window within the declared hours. */
const sharingWindow = (limits: string): Check => (text) => {
  if (limits === '' && text.trim() === '') return null;
  if (limits === '') return 'Give a distinct IP or HWID limit too, or leave the window empty.';
  const hours = Number(text.trim());
  return Number.isInteger(hours) && hours >= WINDOW_HOURS.minimum && hours <= WINDOW_HOURS.maximum
    ? null
    : `Enter whole hours from ${WINDOW_HOURS.minimum} to ${WINDOW_HOURS.maximum}.`;
};
const distinctOrEmpty: Check = (text) =>
  text.trim() === '' || (/^\d+$/.test(text.trim()) && Number(text) >= DISTINCT.minimum)
    ? null
    : `Enter a whole number of at least ${DISTINCT.minimum}, or leave it empty.`;

export function ProductForm({
  product,
  saving,
  error,
  onSubmit,
}: {
  product?: Product;
  saving: boolean;
  error: unknown;
  onSubmit: (input: ProductInput) => void;
}) {
  const [v, setV] = useState({
    name: product?.name ?? '',
    productType: product?.productType ?? 'software',
    description: product?.description ?? '',
    price: numberInput(product?.price ?? null),
    requiresLicense: product?.requiresLicense ?? true,
    isSubscription: product?.isSubscription ?? false,
    recurringPeriodDays: numberInput(product?.recurringPeriodDays),
    maxIps: numberInput(product?.maxIps),
    maxHwids: numberInput(product?.maxHwids),
    slotTimeoutMinutes: numberInput(product?.slotTimeoutMinutes),
    selfReleaseLimit: numberInput(product?.selfReleaseLimit),
    marketplaceResourceId: product?.marketplaceResourceId ?? '',
    polymartProductId: product?.polymartProductId ?? '',
    expiryBasis: (product?.expiryBasis ?? 'fixed') as ExpiryBasis | '',
    validForDays: numberInput(product?.validForDays),
    graceDays: numberInput(product?.graceDays),
    revealReasons: product?.revealReasons ?? false,
    sharingIps: numberInput(product?.sharingAlert?.distinctIps),
    sharingHwids: numberInput(product?.sharingAlert?.distinctHwids),
    sharingWindow: numberInput(product?.sharingAlert?.windowHours),
  });
  const sharingLimits = `${v.sharingIps.trim()}${v.sharingHwids.trim()}`;
  const [features, setFeatures] = useState<FeatureRow[]>(featureRows(product?.features));
  const clock = hasClock(v.expiryBasis);
  const errors = useCheckedForm(
    {
      name: v.name,
      productType: v.productType,
      description: v.description,
      price: v.price,
      recurringPeriodDays: v.isSubscription ? v.recurringPeriodDays : '',
      maxIps: v.maxIps,
      maxHwids: v.maxHwids,
      slotTimeoutMinutes: v.slotTimeoutMinutes,
      selfReleaseLimit: v.selfReleaseLimit,
      marketplaceResourceId: v.marketplaceResourceId,
      polymartProductId: v.polymartProductId,
      validForDays: clock ? v.validForDays : '',
      graceDays: v.graceDays,
      features: JSON.stringify(features),
      sharingIps: v.sharingIps,
      sharingHwids: v.sharingHwids,
      sharingWindow: v.sharingWindow,
    },
    {
      validForDays: (text) => (clock && text.trim() === '' ? 'Required with this expiry basis.' : optionalWholeNumber(text)),
      graceDays: optionalWholeNumber,
      features: () => checkFeatureRows(features),
      sharingIps: distinctOrEmpty,
      sharingHwids: distinctOrEmpty,
      sharingWindow: sharingWindow(sharingLimits),
      name: required,
      productType: required,
      price: amount,
      recurringPeriodDays: optionalWholeNumber,
      maxIps: optionalWholeNumber,
      maxHwids: optionalWholeNumber,
      slotTimeoutMinutes: optionalWholeNumber,
      selfReleaseLimit: optionalWholeNumber,
    },
    error,
    FIELDS,
  );
  const text = (field: keyof typeof v) => (e: { target: { value: string } }) => setV((old) => ({ ...old, [field]: e.target.value }));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!errors.check()) return;
    onSubmit({
      name: v.name.trim(),
      productType: v.productType.trim(),
      description: optionalText(v.description) ?? null,
      price: requiredNumber(v.price) as number,
      requiresLicense: v.requiresLicense,
      isSubscription: v.isSubscription,
      recurringPeriodDays: v.isSubscription ? (optionalInteger(v.recurringPeriodDays) as number | null) : null,
      maxIps: optionalInteger(v.maxIps) as number | null,
      maxHwids: optionalInteger(v.maxHwids) as number | null,
      slotTimeoutMinutes: optionalInteger(v.slotTimeoutMinutes) as number | null,
      selfReleaseLimit: optionalInteger(v.selfReleaseLimit) as number | null,
      marketplaceResourceId: optionalText(v.marketplaceResourceId) ?? null,
      polymartProductId: optionalText(v.polymartProductId) ?? null,
      expiryBasis: (v.expiryBasis || 'fixed') as ExpiryBasis,
      validForDays: clock ? (optionalInteger(v.validForDays) as number | null) : null,
      graceDays: optionalInteger(v.graceDays) as number | null,
      features: featuresFromRows(features) as Record<string, boolean | number | string>,
      revealReasons: v.revealReasons,
      sharingAlert:
        sharingLimits === ''
          ? null
          : {
              ...(v.sharingIps.trim() ? { distinctIps: Number(v.sharingIps) } : {}),
              ...(v.sharingHwids.trim() ? { distinctHwids: Number(v.sharingHwids) } : {}),
              windowHours: Number(v.sharingWindow),
            },
    });
  };

  return (
    <form className="form card" onSubmit={submit} noValidate>
      {errors.form ? <Notice tone="warning">{errors.form}</Notice> : null}
      <div className="form-grid">
        <TextField label="Name" required value={v.name} onChange={text('name')} error={errors.fields.name} />
        <TextField label="Product type" required list="product-types" value={v.productType} onChange={text('productType')} error={errors.fields.productType} />
        <datalist id="product-types">
          <option value="software" />
          <option value="desktop" />
          <option value="plugin" />
        </datalist>
        <TextField label="Price" required inputMode="decimal" value={v.price} onChange={text('price')} error={errors.fields.price} hint="In the account's base currency." />
        <TextField label="Marketplace resource id" value={v.marketplaceResourceId} onChange={text('marketplaceResourceId')} error={errors.fields.marketplaceResourceId} hint="Matched by the marketplace webhook; leave empty if not sold there." />
        <TextField label="Polymart product id" value={v.polymartProductId} onChange={text('polymartProductId')} error={errors.fields.polymartProductId} hint="The id in the product's Polymart URL, matched by the Polymart integration; leave empty if not sold there." />
      </div>
      <TextAreaField label="Description" value={v.description} onChange={text('description')} error={errors.fields.description} />
      <fieldset>
        <legend>Licensing</legend>
        <CheckboxField label="Requires a license" checked={v.requiresLicense} onChange={(e) => setV((old) => ({ ...old, requiresLicense: e.target.checked }))} />
        <div className="form-grid">
          <TextField label="Max IPs per license" {...settingInput('maxIps')} value={v.maxIps} onChange={text('maxIps')} error={errors.fields.maxIps} hint="Empty = unlimited. New licenses inherit it." />
          <TextField label="Max HWIDs per license" {...settingInput('maxHwids')} value={v.maxHwids} onChange={text('maxHwids')} error={errors.fields.maxHwids} hint="Empty = unlimited. New licenses inherit it." />
          <TextField label="Free idle slots after (minutes)" {...settingInput('slotTimeoutMinutes')} value={v.slotTimeoutMinutes} onChange={text('slotTimeoutMinutes')} error={errors.fields.slotTimeoutMinutes} hint={`${SLOT_TIMEOUT_HINT} New licenses inherit it.`} />
          <TextField label={SELF_RELEASE_LABEL} {...settingInput('selfReleaseLimit')} value={v.selfReleaseLimit} onChange={text('selfReleaseLimit')} error={errors.fields.selfReleaseLimit} hint={`${SELF_RELEASE_HINT} New licenses inherit it.`} />
        </div>
      </fieldset>
      <fieldset>
        <legend>Policy</legend>
        <p className="field-hint">Defaults for new licenses; features and reasons apply to existing licenses at once.</p>
        <div className="form-grid">
          <ExpiryBasisFields
            basis={v.expiryBasis}
            days={v.validForDays}
            onBasis={(expiryBasis) => setV((old) => ({ ...old, expiryBasis }))}
            onDays={(validForDays) => setV((old) => ({ ...old, validForDays }))}
            errors={{ expiryBasis: errors.fields.expiryBasis, validForDays: errors.fields.validForDays }}
          />
          <GraceDaysField value={v.graceDays} onChange={(graceDays) => setV((old) => ({ ...old, graceDays }))} error={errors.fields.graceDays} />
        </div>
        <CheckboxField
          label="Tell the client why it was refused"
          checked={v.revealReasons}
          onChange={(e) => setV((old) => ({ ...old, revealReasons: e.target.checked }))}
          hint="Validation answers carry a reason (slot full, expired, revoked…); a license may override it."
        />
        <FeaturesEditor
          legend="Features (the tier)"
          rows={features}
          onChange={setFeatures}
          error={errors.fields.features}
          allowRemove={false}
          hint="What this product unlocks, e.g. pro: on, seats: 5. Licenses may override single keys."
        />
      </fieldset>
      <fieldset>
        <legend>Shared-key alert</legend>
        <p className="field-hint">
          Flags a license of this product that is presented from more distinct IPs or HWIDs than this within the window (each license may set its own). Empty: off.
        </p>
        <div className="form-grid">
          <TextField label="Distinct IPs allowed" type="number" min={DISTINCT.minimum} max={DISTINCT.maximum} step={1} value={v.sharingIps} onChange={text('sharingIps')} error={errors.fields.sharingIps} />
          <TextField label="Distinct HWIDs allowed" type="number" min={DISTINCT.minimum} max={DISTINCT.maximum} step={1} value={v.sharingHwids} onChange={text('sharingHwids')} error={errors.fields.sharingHwids} />
          <TextField
            label="Window (hours)"
            type="number"
            min={WINDOW_HOURS.minimum}
            max={WINDOW_HOURS.maximum}
            step={1}
            value={v.sharingWindow}
            onChange={text('sharingWindow')}
            error={errors.fields.sharingWindow ?? errors.fields.sharingAlert}
            hint={`${WINDOW_HOURS.minimum} to ${WINDOW_HOURS.maximum} hours, sliding.`}
          />
        </div>
      </fieldset>
      <fieldset>
        <legend>Billing</legend>
        <CheckboxField label="Subscription" checked={v.isSubscription} onChange={(e) => setV((old) => ({ ...old, isSubscription: e.target.checked }))} />
        {v.isSubscription ? (
          <TextField label="Billing period (days)" type="number" min={0} step={1} value={v.recurringPeriodDays} onChange={text('recurringPeriodDays')} error={errors.fields.recurringPeriodDays} hint="Marketplace licenses of this product expire after this many days." />
        ) : null}
      </fieldset>
      <div className="actions">
        <button type="submit" className="button button-primary" disabled={saving}>
          {saving ? 'Saving…' : product ? 'Save product' : 'Create product'}
        </button>
      </div>
    </form>
  );
}
