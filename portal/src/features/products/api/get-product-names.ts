import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { keys } from '../../../lib/query-keys';
import type { ProductName } from '../../../types/api';

/** Every product's id and name (GET /products/names: needs only licenses:read). */
export const getProductNames = (signal?: AbortSignal) => api.get<ProductName[]>('/products/names', undefined, signal);

export const productNamesQueryOptions = () =>
  queryOptions({ queryKey: [...keys.products, 'names'], queryFn: ({ signal }) => getProductNames(signal) });

export const useProductNames = (enabled = true) => useQuery({ ...productNamesQueryOptions(), enabled });
