// One slot limit on license creation: the product's default, or a custom value
// (empty custom value = unlimited).
import { TextField } from '../../../components/field';
import { formatLimit } from '../../../lib/format';

export interface LimitValue {
  useDefault: boolean;
  text: string;
}

export function LimitChoice({
  label,
  productLimit,
  value,
  onChange,
  error,
}: {
  label: string;
  productLimit: number | null | undefined;
  value: LimitValue;
  onChange: (value: LimitValue) => void;
  error?: string;
}) {
  return (
    <fieldset className="limit-choice">
      <legend>{label}</legend>
      <label className="checkbox-label">
        <input type="radio" name={`${label}-choice`} checked={value.useDefault} onChange={() => onChange({ ...value, useDefault: true })} />
        Product default{productLimit !== undefined ? ` (${formatLimit(productLimit)})` : ''}
      </label>
      <label className="checkbox-label">
        <input type="radio" name={`${label}-choice`} checked={!value.useDefault} onChange={() => onChange({ ...value, useDefault: false })} />
        Custom
      </label>
      {value.useDefault ? null : (
        <TextField
          label={`Custom ${label}`}
          type="number"
          min={0}
          step={1}
          value={value.text}
          onChange={(e) => onChange({ ...value, text: e.target.value })}
          error={error}
          hint="Empty = unlimited."
        />
      )}
      {value.useDefault && error ? <p className="field-error">{error}</p> : null}
    </fieldset>
  );
}
