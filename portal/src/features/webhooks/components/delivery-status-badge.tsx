// The event after an attempt: delivered, pending (another attempt is scheduled) or failed (given up).
import type { DeliveryStatus } from '../../../types/api';

const BADGES: Record<DeliveryStatus, { label: string; tone: string }> = {
  delivered: { label: 'Delivered', tone: 'badge-ok' },
  pending: { label: 'Pending retry', tone: 'badge-muted' },
  failed: { label: 'Failed', tone: 'badge-bad' },
};

export function DeliveryStatusBadge({ status }: { status: DeliveryStatus }) {
  const { label, tone } = BADGES[status];
  return <span className={`badge ${tone}`}>{label}</span>;
}
