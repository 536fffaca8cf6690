import { Link } from 'react-router';
import { Table } from '../../../components/table';
import type { WebhookEndpoint } from '../../../types/api';
import { EndpointStateBadge } from './endpoint-state-badge';
import { EventsSummary } from './events-summary';
import { FORMAT_LABELS } from '../format-labels';

export function WebhookEndpointsTable({ endpoints }: { endpoints: WebhookEndpoint[] }) {
  return (
    <Table
      caption="Webhook endpoints"
      head={
        <tr>
          <th scope="col">URL</th>
          <th scope="col">Events</th>
          <th scope="col">Format</th>
          <th scope="col">State</th>
        </tr>
      }
    >
      {endpoints.map((endpoint) => (
        <tr key={endpoint.id} data-testid="webhook-endpoint-row">
          <td className="url-cell">
            <Link to={`/webhooks/${endpoint.id}`}>{endpoint.url}</Link>
            {endpoint.description ? <div className="muted">{endpoint.description}</div> : null}
          </td>
          <td>
            <EventsSummary events={endpoint.events} />
          </td>
          <td>{FORMAT_LABELS[endpoint.format]}</td>
          <td>
            <EndpointStateBadge endpoint={endpoint} />
          </td>
        </tr>
      ))}
    </Table>
  );
}
