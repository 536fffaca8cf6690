// A record's id with a copy button: what integrators paste into client software and API calls.
import { CopyButton } from './copy-button';

export function IdRow({ label, id }: { label: string; id: string }) {
  return (
    <p className="id-row" data-testid="record-id">
      <span className="muted">{label}</span>
      <code>{id}</code>
      <CopyButton text={id} label={`Copy ${label.toLowerCase()}`} />
    </p>
  );
}
