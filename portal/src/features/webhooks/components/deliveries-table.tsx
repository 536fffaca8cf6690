// One row per delivery attempt, newest first, with Redeliver for staff who may write.
// The attempt number sits under the status and the duration under the answer's code, so
// that the answer's text has room on a laptop.
import { Table } from '../../../components/table';
import { Time } from '../../../components/time';
import type { WebhookDelivery } from '../../../types/api';
import { DeliveryStatusBadge } from './delivery-status-badge';
import { ResponseExcerpt } from './response-excerpt';

export function DeliveriesTable({
  deliveries,
  onRedeliver,
  redelivering,
}: {
  deliveries: WebhookDelivery[];
  /** Absent: the account may not redeliver, the column is left out. */
  onRedeliver?: (eventId: string) => void;
  redelivering: boolean;
}) {
  return (
    <Table
      caption="Delivery attempts, newest first"
      head={
        <tr>
          <th scope="col">When</th>
          <th scope="col">Event</th>
          <th scope="col">Status</th>
          <th scope="col">Response</th>
          <th scope="col">Response body</th>
          {onRedeliver ? <th scope="col">Actions</th> : null}
        </tr>
      }
    >
      {deliveries.map((delivery) => (
        <tr key={`${delivery.eventId}-${delivery.atEpochMillis}-${delivery.attempt}`} data-testid="delivery-row">
          <td className="nowrap">
            <Time at={delivery.atEpochMillis} style="relative" />
          </td>
          <td>
            <code>{delivery.type}</code>
            <div className="muted cell-note">
              <code>{delivery.eventId}</code>
            </div>
          </td>
          <td>
            <DeliveryStatusBadge delivery={delivery} />
            <div className="muted cell-note">Attempt {delivery.attempt}</div>
          </td>
          <td className="nowrap">
            <span data-testid="response-status">{delivery.responseStatus ?? <span className="muted">No answer</span>}</span>
            <div className="muted cell-note">{delivery.durationMs} ms</div>
          </td>
          <td>
            <ResponseExcerpt body={delivery.responseBody} />
          </td>
          {onRedeliver ? (
            <td>
              <button type="button" className="button button-small" disabled={redelivering} onClick={() => onRedeliver(delivery.eventId)}>
                Redeliver <span className="visually-hidden">event {delivery.eventId}</span>
              </button>
            </td>
          ) : null}
        </tr>
      ))}
    </Table>
  );
}
