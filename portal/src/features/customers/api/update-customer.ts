import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { invalidate, keys } from '../../../lib/query-keys';
import type { Customer, CustomerInput } from '../../../types/api';

export const updateCustomer = ({ id, input }: { id: string; input: CustomerInput }) => api.put<Customer>(`/customers/${encodeURIComponent(id)}`, input);

export function useUpdateCustomer() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: updateCustomer, meta: { success: 'Customer saved.' }, onSuccess: () => invalidate(queryClient, keys.customers) });
}
