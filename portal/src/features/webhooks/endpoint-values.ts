// An endpoint as the form edits it, the body the API takes, and the state a person reads
// in the list and on the endpoint's page.
import type { WebhookEndpoint, WebhookEndpointInput, WebhookFormat } from '../../types/api';

export interface EndpointDraft {
  url: string;
  events: string[];
  format: WebhookFormat;
  description: string;
  enabled: boolean;
}

export const NEW_ENDPOINT: EndpointDraft = { url: '', events: [], format: 'standard', description: '', enabled: true };

export const draftFrom = (endpoint: WebhookEndpoint): EndpointDraft => ({
  url: endpoint.url,
  events: endpoint.events,
  format: endpoint.format,
  description: endpoint.description ?? '',
  enabled: endpoint.enabled,
});

/** The whole body: PUT replaces the endpoint, so every field is sent (an empty description clears it). */
export function endpointBody(draft: EndpointDraft): WebhookEndpointInput {
  const description = draft.description.trim();
  return { url: draft.url.trim(), events: draft.events, format: draft.format, description: description === '' ? null : description, enabled: draft.enabled };
}

export type EndpointState =
  | { kind: 'enabled' }
  | { kind: 'failing'; sinceEpochMillis: number }
  | { kind: 'disabled' }
  | { kind: 'disabledByService'; reason: string };

/** Disabled (by a person or by the service after days of failures), failing since a time, or fine. */
export function endpointState(endpoint: Pick<WebhookEndpoint, 'enabled' | 'failingSinceEpochMillis' | 'disabledReason'>): EndpointState {
  if (!endpoint.enabled) return endpoint.disabledReason ? { kind: 'disabledByService', reason: endpoint.disabledReason } : { kind: 'disabled' };
  if (endpoint.failingSinceEpochMillis !== null) return { kind: 'failing', sinceEpochMillis: endpoint.failingSinceEpochMillis };
  return { kind: 'enabled' };
}
