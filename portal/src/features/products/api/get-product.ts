import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { keys } from '../../../lib/query-keys';
import type { Product } from '../../../types/api';

export const getProduct = (id: string, signal?: AbortSignal) => api.get<Product>(`/products/${encodeURIComponent(id)}`, undefined, signal);

export const productQueryOptions = (id: string) =>
  queryOptions({ queryKey: [...keys.products, 'detail', id], queryFn: ({ signal }) => getProduct(id, signal) });

export const useProduct = (id: string) => useQuery(productQueryOptions(id));
