// A multiple choice as a list of checkboxes (keyboard-friendly, no custom widget).
export function PickList({
  legend,
  options,
  selected,
  onChange,
  error,
  empty,
}: {
  legend: string;
  options: { id: string; label: string; mono?: boolean }[];
  selected: string[];
  onChange: (ids: string[]) => void;
  error?: string;
  empty: string;
}) {
  const toggle = (id: string) => onChange(selected.includes(id) ? selected.filter((x) => x !== id) : [...selected, id]);
  return (
    <fieldset className={`pick-list${error ? ' field-invalid' : ''}`}>
      <legend>{legend}</legend>
      {options.length === 0 ? <p className="muted">{empty}</p> : null}
      {options.map((option) => (
        <label key={option.id} className="checkbox-label">
          <input type="checkbox" checked={selected.includes(option.id)} onChange={() => toggle(option.id)} />
          {option.mono ? <code>{option.label}</code> : option.label}
        </label>
      ))}
      {error ? <p className="field-error">{error}</p> : null}
    </fieldset>
  );
}
