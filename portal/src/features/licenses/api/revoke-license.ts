// POST /licenses/{id}/revoke and /reinstate: no version to carry (the service applies them
// atomically), the license is reloaded either way.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { invalidate, keys } from '../../../lib/query-keys';
import type { License } from '../../../types/api';

export function useRevokeLicense(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (reason: string) => api.post<License>(`/licenses/${encodeURIComponent(id)}/revoke`, reason.trim() ? { reason: reason.trim() } : {}),
    onSettled: () => invalidate(queryClient, keys.licenses),
  });
}

export function useReinstateLicense(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api.post<License>(`/licenses/${encodeURIComponent(id)}/reinstate`),
    onSettled: () => invalidate(queryClient, keys.licenses),
  });
}
