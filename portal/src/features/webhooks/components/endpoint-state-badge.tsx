// Whether the endpoint gets events: enabled, failing since a time, or disabled (by a
// person, or by the service after days of failures, with its reason).
import { Time } from '../../../components/time';
import type { WebhookEndpoint } from '../../../types/api';
import { endpointState } from '../endpoint-values';

export function EndpointStateBadge({ endpoint }: { endpoint: WebhookEndpoint }) {
  const state = endpointState(endpoint);
  switch (state.kind) {
    case 'enabled':
      return <span className="badge badge-ok">Enabled</span>;
    case 'failing':
      return (
        <span className="badge badge-bad">
          Failing since <Time at={state.sinceEpochMillis} style="relative" />
        </span>
      );
    case 'disabled':
      return <span className="badge badge-muted">Disabled</span>;
    case 'disabledByService':
      return (
        <span className="endpoint-disabled">
          <span className="badge badge-bad">Disabled by the service</span> <span className="muted">{state.reason}</span>
        </span>
      );
  }
}
