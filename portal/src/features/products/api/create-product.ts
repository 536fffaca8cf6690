import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { invalidate, keys } from '../../../lib/query-keys';
import type { Product, ProductInput } from '../../../types/api';

export const createProduct = (input: ProductInput) => api.post<Product>('/products', input);

export function useCreateProduct() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: createProduct, meta: { success: 'Product created.' }, onSuccess: () => invalidate(queryClient, keys.products) });
}
