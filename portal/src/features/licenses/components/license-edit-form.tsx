// Change a license's expiry, limits and policy (issue #30). The save is a PATCH of the fields
// the person changed, with the version read; a conflict reloads the license and says so
// (see useUpdateLicense).
import { useState, type FormEvent } from 'react';
import { SelectField, TextField } from '../../../components/field';
import { Notice } from '../../../components/status';
import { useCheckedForm } from '../../../hooks/use-checked-form';
import { optionalWholeNumber } from '../../../lib/form-checks';
import { fromDateTimeLocal, toDateTimeLocal } from '../../../lib/format';
import { numberInput, optionalInteger } from '../../../lib/form-values';
import type { License, Tier } from '../../../types/api';
import type { LicensePatch } from '../api/update-license';
import { checkFeatureRows, featureRows, featuresFromRows, flagInput, flagValue, type ExpiryBasis, type FeatureRow } from '../policy-values';
import { hasClock } from '../../../lib/from-server';
import { settingInput } from '../setting-input';
import { SELF_RELEASE_HINT, SELF_RELEASE_LABEL, SLOT_TIMEOUT_HINT } from '../slot-setting-hints';
import { ExpiryBasisFields, FeaturesEditor, GraceDaysField, RevealReasonsField } from './policy-fields';

const FIELDS = ['tier', 'expiresAtEpochMillis', 'maxIps', 'maxHwids', 'slotTimeoutMinutes', 'selfReleaseLimit', 'expiryBasis', 'validForDays', 'graceDays', 'features', 'revealReasons'] as const;

/** The form's text for each field of a license. */
function formValues(license: License) {
  return {
    tier: license.tier ?? '',
    expiresAtEpochMillis: toDateTimeLocal(license.expiresAtEpochMillis),
    maxIps: numberInput(license.maxIps),
    maxHwids: numberInput(license.maxHwids),
    slotTimeoutMinutes: numberInput(license.slotTimeoutMinutes),
    selfReleaseLimit: numberInput(license.selfReleaseLimit),
    expiryBasis: license.expiryBasis as ExpiryBasis | '',
    validForDays: numberInput(license.validForDays),
    graceDays: numberInput(license.graceDays),
    revealReasons: flagInput(license.revealReasons),
  };
}

export function LicenseEditForm({
  license,
  saving,
  error,
  onSubmit,
  productRevealReasons,
  tiers,
}: {
  license: License;
  saving: boolean;
  error: unknown;
  onSubmit: (patch: LicensePatch) => void;
  /** The product's reveal setting, shown in the inherit choice when known. */
  productRevealReasons?: boolean;
  /** The product's tiers, when the account may read products: the tier can then be changed. */
  tiers?: Tier[];
}) {
  const initial = formValues(license);
  const [v, setV] = useState(initial);
  const [features, setFeatures] = useState<FeatureRow[]>(featureRows(license.features));
  const clock = hasClock(v.expiryBasis);
  const errors = useCheckedForm(
    {
      tier: v.tier,
      expiresAtEpochMillis: v.expiresAtEpochMillis,
      maxIps: v.maxIps,
      maxHwids: v.maxHwids,
      slotTimeoutMinutes: v.slotTimeoutMinutes,
      selfReleaseLimit: v.selfReleaseLimit,
      expiryBasis: v.expiryBasis,
      validForDays: clock ? v.validForDays : '',
      graceDays: v.graceDays,
      features: JSON.stringify(features),
      revealReasons: v.revealReasons,
    },
    {
      validForDays: (text) => (clock && text.trim() === '' ? 'Required with this expiry basis.' : optionalWholeNumber(text)),
      graceDays: optionalWholeNumber,
      features: () => checkFeatureRows(features),
    },
    error,
    FIELDS,
  );
  const set = (field: keyof typeof v) => (value: string) => setV((old) => ({ ...old, [field]: value }));
  const changed = (field: keyof typeof v) => v[field] !== initial[field];

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!errors.check()) return;
    // Only what changed: a PATCH keeps the rest (an expiry shown to the minute is not rewritten).
    const patch: LicensePatch = {};
    if (changed('tier')) patch.tier = v.tier === '' ? null : v.tier;
    if (changed('expiresAtEpochMillis')) patch.expiresAtEpochMillis = fromDateTimeLocal(v.expiresAtEpochMillis);
    if (changed('maxIps')) patch.maxIps = optionalInteger(v.maxIps) as number | null;
    if (changed('maxHwids')) patch.maxHwids = optionalInteger(v.maxHwids) as number | null;
    if (changed('slotTimeoutMinutes')) patch.slotTimeoutMinutes = optionalInteger(v.slotTimeoutMinutes) as number | null;
    if (changed('selfReleaseLimit')) patch.selfReleaseLimit = optionalInteger(v.selfReleaseLimit) as number | null;
    if (changed('expiryBasis') || changed('validForDays')) {
      patch.expiryBasis = (v.expiryBasis || 'fixed') as ExpiryBasis;
      patch.validForDays = clock ? (optionalInteger(v.validForDays) as number | null) : null;
    }
    if (changed('graceDays')) patch.graceDays = optionalInteger(v.graceDays) as number | null;
    if (changed('revealReasons')) patch.revealReasons = flagValue(v.revealReasons);
    const next = featuresFromRows(features);
    if (JSON.stringify(next) !== JSON.stringify(license.features)) patch.features = next;
    onSubmit(patch);
  };

  return (
    <form className="form card" onSubmit={submit} noValidate>
      <h2>Tier, expiry, limits and healing</h2>
      {errors.form ? <Notice tone="warning">{errors.form}</Notice> : null}
      <div className="form-grid">
        {tiers && (tiers.length > 0 || license.tier !== null) ? (
          <SelectField label="Tier" value={v.tier} onChange={(e) => set('tier')(e.target.value)} error={errors.fields.tier} hint="Its features merge over the product's, under this license's own.">
            <option value="">Base (no tier)</option>
            {license.tier !== null && !tiers.some((t) => t.code === license.tier) ? <option value={license.tier}>{license.tier}</option> : null}
            {tiers.map((t) => (
              <option key={t.code} value={t.code}>
                {t.name} ({t.code})
              </option>
            ))}
          </SelectField>
        ) : null}
        <TextField label="Expires at" type="datetime-local" value={v.expiresAtEpochMillis} onChange={(e) => set('expiresAtEpochMillis')(e.target.value)} error={errors.fields.expiresAtEpochMillis} hint="Empty = perpetual (or, for a trial, not started)." />
        <TextField label="Max IPs" {...settingInput('maxIps')} value={v.maxIps} onChange={(e) => set('maxIps')(e.target.value)} error={errors.fields.maxIps} hint="Empty = unlimited." />
        <TextField label="Max HWIDs" {...settingInput('maxHwids')} value={v.maxHwids} onChange={(e) => set('maxHwids')(e.target.value)} error={errors.fields.maxHwids} hint="Empty = unlimited." />
        <TextField label="Free idle slots after (minutes)" {...settingInput('slotTimeoutMinutes')} value={v.slotTimeoutMinutes} onChange={(e) => set('slotTimeoutMinutes')(e.target.value)} error={errors.fields.slotTimeoutMinutes} hint={SLOT_TIMEOUT_HINT} />
        <TextField label={SELF_RELEASE_LABEL} {...settingInput('selfReleaseLimit')} value={v.selfReleaseLimit} onChange={(e) => set('selfReleaseLimit')(e.target.value)} error={errors.fields.selfReleaseLimit} hint={SELF_RELEASE_HINT} />
      </div>
      <fieldset>
        <legend>Policy</legend>
        <div className="form-grid">
          <ExpiryBasisFields
            basis={v.expiryBasis}
            days={v.validForDays}
            onBasis={set('expiryBasis')}
            onDays={set('validForDays')}
            errors={{ expiryBasis: errors.fields.expiryBasis, validForDays: errors.fields.validForDays }}
          />
          <GraceDaysField value={v.graceDays} onChange={set('graceDays')} error={errors.fields.graceDays} />
          <RevealReasonsField value={v.revealReasons} onChange={set('revealReasons')} error={errors.fields.revealReasons} productValue={productRevealReasons} />
        </div>
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
          {saving ? 'Saving…' : 'Save changes'}
        </button>
      </div>
    </form>
  );
}
