// An endpoint's delivery log with Refresh, and for staff who may write, "Send test event"
// and Redeliver. Both queue an event; the log is re-read for a while to show its attempts.
import { useState } from 'react';
import { EmptyState, ErrorMessage, Notice, QueryState } from '../../../components/status';
import { useDeliveries, useRedeliver, useSendTestEvent } from '../api/deliveries';
import { DeliveriesTable } from './deliveries-table';

const PAGE = 50;
const MAX_LIMIT = 500;

export function DeliveryLog({ endpointId, canWrite, onRefresh }: { endpointId: string; canWrite: boolean; onRefresh: () => void }) {
  const [limit, setLimit] = useState(PAGE);
  const { query: deliveries, watch } = useDeliveries(endpointId, limit);
  const sendTest = useSendTestEvent(endpointId, watch);
  const redeliver = useRedeliver(endpointId, watch);
  const [queued, setQueued] = useState<string | null>(null);
  const refresh = () => {
    onRefresh();
    void deliveries.refetch();
  };

  return (
    <section className="card" aria-labelledby="deliveries-title">
      <div className="section-header">
        <h2 id="deliveries-title">Deliveries</h2>
        <div className="actions">
          {canWrite ? (
            <button
              type="button"
              className="button"
              disabled={sendTest.isPending}
              onClick={() => sendTest.mutate(undefined, { onSuccess: ({ eventId }) => setQueued(`Test event ${eventId} queued.`) })}
            >
              Send test event
            </button>
          ) : null}
          <button type="button" className="button" onClick={refresh} disabled={deliveries.isFetching}>
            {deliveries.isFetching ? 'Refreshing…' : 'Refresh'}
          </button>
        </div>
      </div>
      <p className="muted">One row per attempt, newest first, kept 30 days. A failed attempt is retried with growing delays for about 3 days.</p>
      {queued ? <Notice tone="success">{queued} Its attempts appear below.</Notice> : null}
      <ErrorMessage error={sendTest.error} title="Test event not sent:" />
      <ErrorMessage error={redeliver.error} title="Not redelivered:" />
      <QueryState query={deliveries} empty={<EmptyState title="No delivery attempts yet." />}>
        {(list) => (
          <>
            <DeliveriesTable
              deliveries={list}
              redelivering={redeliver.isPending}
              onRedeliver={
                canWrite ? (eventId) => redeliver.mutate(eventId, { onSuccess: () => setQueued(`Event ${eventId} queued again.`) }) : undefined
              }
            />
            {list.length === limit && limit < MAX_LIMIT ? (
              <button type="button" className="button" onClick={() => setLimit((current) => Math.min(current + PAGE, MAX_LIMIT))}>
                Show older attempts
              </button>
            ) : null}
          </>
        )}
      </QueryState>
    </section>
  );
}
