// The license-policy settings (issue #30) as form parts shared by the product form (the
// defaults and the tier), license creation and the license edit form: expiry basis with
// its length, grace days, features (a key/value editor) and whether answers reveal reasons.
import { SelectField, TextField } from '../../../components/field';
import { LICENSE_SETTINGS, hasClock } from '../../../lib/from-server';
import type { ExpiryBasis, FeatureRow, FeatureType } from '../policy-values';
import { settingInput } from '../setting-input';

const { validForDays: VALID_FOR_DAYS, graceDays: GRACE_DAYS } = LICENSE_SETTINGS;

/** What grace days do, with their bounds; the license form's product-default choice says it too. */
export const GRACE_DAYS_HINT = `Days after expiry when machines already bound keep validating (${GRACE_DAYS.minimum}–${GRACE_DAYS.maximum}). Empty = none.`;

export const BASIS_LABELS: Record<ExpiryBasis, string> = {
  fixed: 'Fixed date (or never)',
  creation: 'From creation',
  firstValidation: 'From first use (trial)',
};

/** Expiry basis and, with a clock, its length in days. `inherit` adds "Product default". */
export function ExpiryBasisFields({
  basis,
  days,
  onBasis,
  onDays,
  errors,
  inherit,
}: {
  basis: ExpiryBasis | '';
  days: string;
  onBasis: (basis: ExpiryBasis | '') => void;
  onDays: (days: string) => void;
  errors: { expiryBasis?: string; validForDays?: string };
  /** The product's setting, read as "Product default (…)"; undefined: no default choice. */
  inherit?: string;
}) {
  return (
    <>
      <SelectField
        label="Expiry basis"
        value={basis}
        onChange={(e) => onBasis(e.target.value as ExpiryBasis | '')}
        error={errors.expiryBasis}
        hint="From first use: the clock starts at the first validation that passes every check."
      >
        {inherit !== undefined ? <option value="">Product default{inherit ? ` (${inherit})` : ''}</option> : null}
        {(Object.keys(BASIS_LABELS) as ExpiryBasis[]).map((value) => (
          <option key={value} value={value}>
            {BASIS_LABELS[value]}
          </option>
        ))}
      </SelectField>
      {hasClock(basis) ? (
        <TextField
          label="Valid for (days)"
          {...settingInput('validForDays')}
          value={days}
          onChange={(e) => onDays(e.target.value)}
          error={errors.validForDays}
          hint={`${VALID_FOR_DAYS.minimum}–${VALID_FOR_DAYS.maximum} days from the start of the clock.`}
        />
      ) : null}
    </>
  );
}

export function GraceDaysField({ value, onChange, error, hint }: { value: string; onChange: (value: string) => void; error?: string; hint?: string }) {
  return (
    <TextField
      label="Grace days"
      {...settingInput('graceDays')}
      value={value}
      onChange={(e) => onChange(e.target.value)}
      error={error}
      hint={hint ?? GRACE_DAYS_HINT}
    />
  );
}

/** Product: on or off. License: on, off, or the product's (null). */
export function RevealReasonsField({
  value,
  onChange,
  error,
  productValue,
}: {
  value: 'true' | 'false' | '';
  onChange: (value: 'true' | 'false' | '') => void;
  error?: string;
  /** For a license: the product's setting, shown in the inherit choice. */
  productValue?: boolean;
}) {
  const product = productValue === undefined ? '' : productValue ? ' (yes)' : ' (no)';
  return (
    <SelectField
      label="Tell the client why it was refused"
      value={value}
      onChange={(e) => onChange(e.target.value as 'true' | 'false' | '')}
      error={error}
      hint="The validate answer carries a reason (slot full, expired, revoked…) the plugin can show the buyer."
    >
      <option value="">{`Product default${product}`}</option>
      <option value="true">Yes</option>
      <option value="false">No</option>
    </SelectField>
  );
}

const TYPE_LABELS: Record<FeatureType, string> = { boolean: 'On/off', integer: 'Whole number', string: 'Text', remove: 'Remove product key' };

/**
 * Rows of key, type and value. `allowRemove` (licenses) offers "Remove product key", sent
 * as null. The API's error about `features` shows under the editor.
 */
export function FeaturesEditor({
  rows,
  onChange,
  error,
  allowRemove,
  legend = 'Features',
  hint,
}: {
  rows: FeatureRow[];
  onChange: (rows: FeatureRow[]) => void;
  error?: string;
  allowRemove: boolean;
  legend?: string;
  hint?: string;
}) {
  const set = (index: number, patch: Partial<FeatureRow>) => onChange(rows.map((row, i) => (i === index ? { ...row, ...patch } : row)));
  const types = (Object.keys(TYPE_LABELS) as FeatureType[]).filter((type) => allowRemove || type !== 'remove');
  return (
    <fieldset className={`features-editor${error ? ' field-invalid' : ''}`} data-testid="features-editor">
      <legend>{legend}</legend>
      {hint ? <p className="field-hint">{hint}</p> : null}
      {rows.map((row, index) => (
        <div className="form-inline feature-row" key={index} data-testid="feature-row">
          <TextField label={`Feature ${index + 1} key`} value={row.key} onChange={(e) => set(index, { key: e.target.value })} placeholder="e.g. pro" />
          <SelectField label={`Feature ${index + 1} type`} value={row.type} onChange={(e) => set(index, { type: e.target.value as FeatureType })}>
            {types.map((type) => (
              <option key={type} value={type}>
                {TYPE_LABELS[type]}
              </option>
            ))}
          </SelectField>
          {row.type === 'boolean' ? (
            <SelectField label={`Feature ${index + 1} value`} value={row.value === 'false' ? 'false' : 'true'} onChange={(e) => set(index, { value: e.target.value })}>
              <option value="true">On</option>
              <option value="false">Off</option>
            </SelectField>
          ) : row.type === 'remove' ? null : (
            <TextField
              label={`Feature ${index + 1} value`}
              value={row.value}
              inputMode={row.type === 'integer' ? 'numeric' : undefined}
              onChange={(e) => set(index, { value: e.target.value })}
            />
          )}
          <button type="button" className="button button-small" onClick={() => onChange(rows.filter((_, i) => i !== index))}>
            Remove <span className="visually-hidden">feature {index + 1}</span>
          </button>
        </div>
      ))}
      <button type="button" className="button button-small" onClick={() => onChange([...rows, { key: '', type: 'boolean', value: 'true' }])}>
        Add feature
      </button>
      {error ? (
        <p className="field-error" role="alert">
          {error}
        </p>
      ) : null}
    </fieldset>
  );
}

/** Effective features as chips (`key: value`), or "None". */
export function FeatureChips({ features }: { features: Record<string, boolean | number | string> }) {
  const entries = Object.entries(features);
  if (entries.length === 0) return <span className="muted">None</span>;
  return (
    <>
      {entries.map(([key, value]) => (
        <span className="chip" key={key}>
          <code>
            {key}: {JSON.stringify(value)}
          </code>
        </span>
      ))}
    </>
  );
}
