// An endpoint's delivery log (one row per attempt, newest first), a test event, and
// redelivery of an event. Sends are queued: their attempts show in the log a moment later,
// so after one the log is re-read every few seconds for a while. Neither is audited.
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api } from '../../../lib/api-client';
import { keys } from '../../../lib/query-keys';
import type { QueuedEvent, WebhookDelivery } from '../../../types/api';
import { endpointPath } from './webhook-endpoints';

const deliveriesKey = (id: string) => [...keys.webhooks, 'detail', id, 'deliveries'];
const WATCH_MILLIS = 30_000;
const WATCH_EVERY_MILLIS = 2_000;

/** Re-reads the log every 2 s for 30 s after `watch()`; otherwise only on demand. */
export function useDeliveries(id: string, limit: number) {
  const [watchUntil, setWatchUntil] = useState(0);
  const query = useQuery({
    queryKey: [...deliveriesKey(id), limit],
    queryFn: ({ signal }) => api.get<WebhookDelivery[]>(`${endpointPath(id)}/deliveries`, { limit }, signal),
    refetchInterval: () => (Date.now() < watchUntil ? WATCH_EVERY_MILLIS : false),
    // Showing older attempts keeps the rows on screen while the longer list loads.
    placeholderData: keepPreviousData,
  });
  return { query, watch: () => setWatchUntil(Date.now() + WATCH_MILLIS) };
}

/** `onQueued`: the log is about to change (start watching it). */
export function useSendTestEvent(id: string, onQueued: () => void) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api.post<QueuedEvent>(`${endpointPath(id)}/test`),
    onSuccess: () => {
      onQueued();
      return queryClient.invalidateQueries({ queryKey: deliveriesKey(id) });
    },
  });
}

export function useRedeliver(id: string, onQueued: () => void) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (eventId: string) => api.post<QueuedEvent>(`${endpointPath(id)}/deliveries/${encodeURIComponent(eventId)}/redeliver`),
    onSuccess: () => {
      onQueued();
      return queryClient.invalidateQueries({ queryKey: deliveriesKey(id) });
    },
  });
}
