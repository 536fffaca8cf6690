import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { invalidate, keys } from '../../../lib/query-keys';

export const deleteLicense = (id: string) => api.delete(`/licenses/${encodeURIComponent(id)}`);

export function useDeleteLicense() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: deleteLicense, meta: { success: 'License deleted.' }, onSuccess: () => invalidate(queryClient, keys.licenses, keys.orders) });
}
