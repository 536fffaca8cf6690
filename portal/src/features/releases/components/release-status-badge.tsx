import type { ReleaseStatus } from '../../../types/api';
import { STATUS_LABELS } from '../release-rules';

const TONES: Record<ReleaseStatus, string> = { draft: 'badge-muted', published: 'badge-ok', deprecated: 'badge-warn', archived: 'badge-bad' };

export function ReleaseStatusBadge({ status }: { status: ReleaseStatus }) {
  return (
    <span className={`badge ${TONES[status]}`} data-testid="release-status">
      {STATUS_LABELS[status]}
    </span>
  );
}
