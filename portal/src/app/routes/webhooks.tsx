// Webhook endpoints: where the service sends its events, and whether they arrive.
import { Link } from 'react-router';
import { PageHeader } from '../../components/page-header';
import { EmptyState, QueryState } from '../../components/status';
import { useWebhookEndpoints } from '../../features/webhooks/api/webhook-endpoints';
import { WebhookEndpointsTable } from '../../features/webhooks/components/webhook-endpoints-table';
import { useCan } from '../../hooks/use-session';

export function WebhooksPage() {
  const endpoints = useWebhookEndpoints();
  const canWrite = useCan('webhooks:write');
  return (
    <>
      <PageHeader
        title="Webhooks"
        actions={
          canWrite ? (
            <Link className="button button-primary" to="/webhooks/new">
              New endpoint
            </Link>
          ) : null
        }
      />
      <p className="muted">
        Each change (and each validation) is sent as an event to the endpoints that subscribe to it, retried for about 3 days until the
        receiver answers 2xx.
      </p>
      <QueryState query={endpoints} empty={<EmptyState title="No webhook endpoints yet." />}>
        {(list) => <WebhookEndpointsTable endpoints={list} />}
      </QueryState>
    </>
  );
}
