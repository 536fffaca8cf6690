import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { invalidate, keys } from '../../../lib/query-keys';

export const deleteProduct = (id: string) => api.delete(`/products/${encodeURIComponent(id)}`);

export function useDeleteProduct() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: deleteProduct, meta: { success: 'Product deleted.' }, onSuccess: () => invalidate(queryClient, keys.products) });
}
