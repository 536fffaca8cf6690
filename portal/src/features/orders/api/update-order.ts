import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { invalidate, keys } from '../../../lib/query-keys';
import type { Order, OrderInput } from '../../../types/api';

export const updateOrder = ({ id, input }: { id: string; input: OrderInput }) => api.put<Order>(`/orders/${encodeURIComponent(id)}`, input);

export function useUpdateOrder() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: updateOrder, meta: { success: 'Order saved.' }, onSuccess: () => invalidate(queryClient, keys.orders) });
}
