import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { invalidate, keys } from '../../../lib/query-keys';

export const deleteCustomer = (id: string) => api.delete(`/customers/${encodeURIComponent(id)}`);

export function useDeleteCustomer() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: deleteCustomer, meta: { success: 'Customer deleted.' }, onSuccess: () => invalidate(queryClient, keys.customers) });
}
