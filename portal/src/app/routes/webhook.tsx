// A webhook endpoint: created with its secret shown once; its page shows the endpoint, the
// edit form, rotation (the new secret shown once), deletion and the delivery log.
import { useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { DeleteButton } from '../../components/delete-button';
import { PageHeader } from '../../components/page-header';
import { Notice, QueryState } from '../../components/status';
import {
  useCreateWebhookEndpoint,
  useDeleteWebhookEndpoint,
  useUpdateWebhookEndpoint,
  useWebhookEndpoint,
} from '../../features/webhooks/api/webhook-endpoints';
import { DeliveryLog } from '../../features/webhooks/components/delivery-log';
import { EndpointSummary } from '../../features/webhooks/components/endpoint-summary';
import { RotateSecretButton } from '../../features/webhooks/components/rotate-secret-button';
import { SecretNotice } from '../../features/webhooks/components/secret-notice';
import { WebhookEndpointForm } from '../../features/webhooks/components/webhook-endpoint-form';
import { draftFrom } from '../../features/webhooks/endpoint-values';
import { useCan } from '../../hooks/use-session';

const BACK = { to: '/webhooks', label: 'Webhooks' };

export function WebhookCreatePage() {
  const create = useCreateWebhookEndpoint();
  // The secret lives only in this mutation's answer: a reload or another page forgets it.
  if (create.data) {
    const created = create.data;
    return (
      <>
        <PageHeader title="Endpoint created" back={BACK} />
        <SecretNotice secret={created.secret}>
          {created.format === 'standard' ? (
            <>
              Events for <code>{created.url}</code> are signed with this secret.
            </>
          ) : (
            'Discord messages are not signed; this secret signs the events if you switch the endpoint to the standard format.'
          )}
        </SecretNotice>
        <div className="actions">
          <Link className="button button-primary" to={`/webhooks/${created.id}`}>
            Open the endpoint
          </Link>
          <button type="button" className="button" onClick={() => create.reset()}>
            Create another
          </button>
        </div>
      </>
    );
  }
  return (
    <>
      <PageHeader title="New webhook endpoint" back={BACK} />
      <WebhookEndpointForm saving={create.isPending} error={create.error} submitLabel="Create endpoint" onSubmit={(input) => create.mutate(input)} />
    </>
  );
}

export function WebhookEndpointPage() {
  const { id = '' } = useParams();
  const navigate = useNavigate();
  const endpoint = useWebhookEndpoint(id);
  const update = useUpdateWebhookEndpoint(id);
  const remove = useDeleteWebhookEndpoint();
  const [newSecret, setNewSecret] = useState<string | null>(null);
  const canWrite = useCan('webhooks:write');

  return (
    <QueryState query={endpoint}>
      {(data) => (
        <>
          <PageHeader
            title="Webhook endpoint"
            back={BACK}
            actions={
              canWrite ? (
                <>
                  <RotateSecretButton endpointId={id} onRotated={setNewSecret} />
                  <DeleteButton
                    id={id}
                    what="this webhook endpoint"
                    mutation={remove}
                    consequence="Its queued events and its delivery log are deleted with it; the receiver gets nothing more."
                    onDeleted={() => navigate('/webhooks')}
                  />
                </>
              ) : null
            }
          />
          {newSecret ? <SecretNotice secret={newSecret}>Secret rotated: attempts from now on are signed with this one.</SecretNotice> : null}
          <EndpointSummary endpoint={data} />
          {canWrite ? (
            <>
              {update.isSuccess ? <Notice tone="success">Endpoint saved.</Notice> : null}
              <h2>Edit</h2>
              <WebhookEndpointForm
                key={data.updatedAtEpochMillis}
                initial={draftFrom(data)}
                saving={update.isPending}
                error={update.error}
                submitLabel="Save endpoint"
                onSubmit={(input) => update.mutate(input)}
              />
            </>
          ) : null}
          <DeliveryLog endpointId={id} canWrite={canWrite} onRefresh={() => void endpoint.refetch()} />
        </>
      )}
    </QueryState>
  );
}
