// Webhook endpoints: list, read, create (answers the secret once), replace, delete,
// rotate the secret (answers the new one once), and the event types to pick from.
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { invalidate, keys } from '../../../lib/query-keys';
import type { WebhookEndpoint, WebhookEndpointInput, WebhookEndpointWithSecret } from '../../../types/api';

export const endpointPath = (id: string) => `/webhook-endpoints/${encodeURIComponent(id)}`;

export const useWebhookEndpoints = (enabled = true) =>
  useQuery({ queryKey: [...keys.webhooks, 'list'], queryFn: ({ signal }) => api.get<WebhookEndpoint[]>('/webhook-endpoints', undefined, signal), enabled });

export const webhookEndpointQueryOptions = (id: string) =>
  queryOptions({ queryKey: [...keys.webhooks, 'detail', id], queryFn: ({ signal }) => api.get<WebhookEndpoint>(endpointPath(id), undefined, signal) });

export const useWebhookEndpoint = (id: string) => useQuery(webhookEndpointQueryOptions(id));

/** The vocabulary only changes with a release of the service. */
export const useWebhookEventTypes = () =>
  useQuery({
    queryKey: [...keys.webhooks, 'event-types'],
    queryFn: ({ signal }) => api.get<string[]>('/webhook-endpoints/event-types', undefined, signal),
    staleTime: Infinity,
  });

export function useCreateWebhookEndpoint() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: WebhookEndpointInput) => api.post<WebhookEndpointWithSecret>('/webhook-endpoints', input),
    onSuccess: () => invalidate(queryClient, keys.webhooks),
  });
}

export function useUpdateWebhookEndpoint(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: WebhookEndpointInput) => api.put<WebhookEndpoint>(endpointPath(id), input),
    onSuccess: (saved) => {
      queryClient.setQueryData([...keys.webhooks, 'detail', id], saved);
      return invalidate(queryClient, keys.webhooks);
    },
  });
}

export function useDeleteWebhookEndpoint() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.delete(endpointPath(id)),
    meta: { success: 'Webhook endpoint deleted.' },
    onSuccess: (_answer, id) => {
      // Not refetched: the page that showed it is being left.
      queryClient.removeQueries({ queryKey: [...keys.webhooks, 'detail', id] });
      return invalidate(queryClient, keys.webhooks);
    },
  });
}

export function useRotateWebhookSecret(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api.post<WebhookEndpointWithSecret>(`${endpointPath(id)}/rotate-secret`),
    onSuccess: () => invalidate(queryClient, keys.webhooks),
  });
}
