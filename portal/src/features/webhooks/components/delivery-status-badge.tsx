// An attempt's status in words, read against its event's state now: an attempt after which a
// retry was scheduled says "Pending retry" only while that retry is still to come; once the
// event was delivered or given up it says "Retried", and the row names the final state.
import type { DeliveryStatus, WebhookDelivery } from '../../../types/api';

const BADGES: Record<DeliveryStatus, { label: string; tone: string }> = {
  delivered: { label: 'Delivered', tone: 'badge-ok' },
  pending: { label: 'Pending retry', tone: 'badge-muted' },
  failed: { label: 'Failed', tone: 'badge-bad' },
};

const FINAL: Record<DeliveryStatus, string> = { delivered: 'event delivered since', failed: 'event given up since', pending: 'event pending again' };

/** The badge and, when the event moved on after this attempt, what became of it. */
export function attemptStatus(delivery: Pick<WebhookDelivery, 'status' | 'eventStatus'>): { label: string; tone: string; final: string | null } {
  const movedOn = delivery.status === 'pending' && delivery.eventStatus !== 'pending';
  if (movedOn) return { label: 'Retried', tone: 'badge-muted', final: FINAL[delivery.eventStatus] };
  const redelivered = delivery.status !== 'pending' && delivery.eventStatus !== delivery.status;
  return { ...BADGES[delivery.status], final: redelivered ? FINAL[delivery.eventStatus] : null };
}

export function DeliveryStatusBadge({ delivery }: { delivery: Pick<WebhookDelivery, 'status' | 'eventStatus'> }) {
  const { label, tone, final } = attemptStatus(delivery);
  return (
    <>
      <span className={`badge ${tone}`} data-testid="attempt-status">
        {label}
      </span>
      {final ? <div className="muted cell-note" data-testid="event-final-state">{final}</div> : null}
    </>
  );
}
