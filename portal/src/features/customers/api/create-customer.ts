import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { invalidate, keys } from '../../../lib/query-keys';
import type { Customer, CustomerInput } from '../../../types/api';

export const createCustomer = (input: CustomerInput) => api.post<Customer>('/customers', input);

export function useCreateCustomer() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: createCustomer, meta: { success: 'Customer created.' }, onSuccess: () => invalidate(queryClient, keys.customers) });
}
