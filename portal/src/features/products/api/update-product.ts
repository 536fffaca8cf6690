import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { invalidate, keys } from '../../../lib/query-keys';
import type { Product, ProductPatch } from '../../../types/api';

/** PATCH (a partial update, issue #30): the form sends every field it edits, nulls included; the tiers panel sends `tiers` alone. */
export const updateProduct = ({ id, input }: { id: string; input: ProductPatch }) => api.patch<Product>(`/products/${encodeURIComponent(id)}`, input);

export function useUpdateProduct() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: updateProduct, onSuccess: () => invalidate(queryClient, keys.products) });
}
