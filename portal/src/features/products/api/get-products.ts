import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { keys } from '../../../lib/query-keys';
import type { Product, PageParams } from '../../../types/api';

export interface ProductQuery extends PageParams {
  /** Text searched in names. */
  q?: string;
}

/** One page (or, without limit/offset, all) of the products matching `query`, and how many match in all. */
export const getProducts = (query: ProductQuery = {}, signal?: AbortSignal) => api.list<Product>('/products', { ...query }, signal);

export const productsQueryOptions = (query: ProductQuery = {}) =>
  queryOptions({
    queryKey: [...keys.products, 'list', query],
    queryFn: ({ signal }) => getProducts(query, signal),
    placeholderData: keepPreviousData,
  });

export const useProducts = (query: ProductQuery = {}, enabled = true) => useQuery({ ...productsQueryOptions(query), enabled });
