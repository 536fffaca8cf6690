import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { invalidate, keys } from '../../../lib/query-keys';
import type { Order, OrderInput } from '../../../types/api';

export const createOrder = (input: OrderInput) => api.post<Order>('/orders', input);

export function useCreateOrder() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: createOrder, meta: { success: 'Order created.' }, onSuccess: () => invalidate(queryClient, keys.orders) });
}
