// A license's lifecycle status as a badge (statusLabel in license-stats.ts says the words):
// with its date on the license page, short in lists with the whole sentence on hover.
import type { License } from '../../../types/api';
import { statusLabel } from '../license-stats';

type BadgeFacts = Parameters<typeof statusLabel>[0];

export function StatusBadge({ license, short = false, now }: { license: BadgeFacts | License; short?: boolean; now?: number }) {
  const label = statusLabel(license, { now, short });
  return (
    <span className={`badge badge-${label.tone}`} data-status={label.status} title={label.text === label.full ? undefined : label.full}>
      {label.text}
    </span>
  );
}
