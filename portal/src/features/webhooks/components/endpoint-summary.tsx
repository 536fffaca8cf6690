// An endpoint at a glance: where it sends, what, in which format, and whether it works.
import { IdRow } from '../../../components/id-row';
import { formatDateTime } from '../../../lib/format';
import type { WebhookEndpoint } from '../../../types/api';
import { FORMAT_LABELS } from '../format-labels';
import { subscribesToAll } from '../event-types';
import { EndpointStateBadge } from './endpoint-state-badge';

export function EndpointSummary({ endpoint }: { endpoint: WebhookEndpoint }) {
  return (
    <section className="card">
      <IdRow label="Endpoint id" id={endpoint.id} />
      <dl className="facts">
        <dt>URL</dt>
        <dd>
          <code data-testid="endpoint-url">{endpoint.url}</code>
        </dd>
        <dt>State</dt>
        <dd data-testid="endpoint-state">
          <EndpointStateBadge endpoint={endpoint} />
        </dd>
        <dt>Format</dt>
        <dd>{FORMAT_LABELS[endpoint.format]}</dd>
        <dt>Events</dt>
        <dd>
          {subscribesToAll(endpoint.events)
            ? 'All events'
            : endpoint.events.map((type) => (
                <span key={type} className="chip">
                  <code>{type}</code>
                </span>
              ))}
        </dd>
        <dt>Description</dt>
        <dd>{endpoint.description ?? <span className="muted">None</span>}</dd>
        <dt>Created</dt>
        <dd>{formatDateTime(endpoint.createdAtEpochMillis)}</dd>
        <dt>Changed</dt>
        <dd>{formatDateTime(endpoint.updatedAtEpochMillis)}</dd>
      </dl>
    </section>
  );
}
