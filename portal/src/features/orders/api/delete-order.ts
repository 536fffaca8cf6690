import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { invalidate, keys } from '../../../lib/query-keys';

export const deleteOrder = (id: string) => api.delete(`/orders/${encodeURIComponent(id)}`);

export function useDeleteOrder() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: deleteOrder, meta: { success: 'Order deleted.' }, onSuccess: () => invalidate(queryClient, keys.orders) });
}
