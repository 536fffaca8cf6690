// Shared-key detection of one license: its state (alert, distinct values in the window,
// the values seen most) and clearing the "suspected" mark.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { invalidate, keys } from '../../../lib/query-keys';
import type { LicenseSharing } from '../../../types/api';

const sharingPath = (id: string) => `/licenses/${encodeURIComponent(id)}/sharing`;

export const useLicenseSharing = (id: string) =>
  useQuery({ queryKey: [...keys.licenses, 'sharing', id], queryFn: ({ signal }) => api.get<LicenseSharing>(sharingPath(id), undefined, signal) });

export function useClearSharing(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api.post<void>(`${sharingPath(id)}/clear`),
    onSuccess: () => invalidate(queryClient, keys.licenses),
  });
}
