// One per-license setting on license creation (a slot limit, the slot timeout, the
// self-release limit): the product's default, or a custom value (empty = null).
import { TextField } from '../../../components/field';
import { formatLimit } from '../../../lib/format';

export interface LimitValue {
  useDefault: boolean;
  text: string;
}

export function LimitChoice({
  label,
  bounds,
  productLimit,
  value,
  onChange,
  error,
  format = formatLimit,
  hint = 'Empty = unlimited.',
}: {
  label: string;
  /** The setting's bounds as the server declares them (LICENSE_SETTINGS). */
  bounds: { minimum: number; maximum: number };
  productLimit: number | null | undefined;
  value: LimitValue;
  onChange: (value: LimitValue) => void;
  error?: string;
  /** How the product's value reads (default: a slot limit). */
  format?: (value: number | null) => string;
  hint?: string;
}) {
  return (
    <fieldset className="limit-choice">
      <legend>{label}</legend>
      <label className="checkbox-label">
        <input type="radio" name={`${label}-choice`} checked={value.useDefault} onChange={() => onChange({ ...value, useDefault: true })} />
        Product default{productLimit !== undefined ? ` (${format(productLimit)})` : ''}
      </label>
      <label className="checkbox-label">
        <input type="radio" name={`${label}-choice`} checked={!value.useDefault} onChange={() => onChange({ ...value, useDefault: false })} />
        Custom
      </label>
      {value.useDefault ? null : (
        <TextField
          label={`Custom ${label}`}
          type="number"
          min={bounds.minimum}
          max={bounds.maximum}
          step={1}
          value={value.text}
          onChange={(e) => onChange({ ...value, text: e.target.value })}
          error={error}
          hint={hint}
        />
      )}
      {value.useDefault && error ? <p className="field-error">{error}</p> : null}
    </fieldset>
  );
}
