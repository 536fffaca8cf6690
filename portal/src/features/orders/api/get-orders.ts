import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { keys } from '../../../lib/query-keys';
import type { Order, PageParams } from '../../../types/api';

export interface OrderQuery extends PageParams {
  customerId?: string;
  productId?: string;
  licenseId?: string;
}

/** One page (or, without limit/offset, all) of the orders matching `query`, and how many match in all. */
export const getOrders = (query: OrderQuery = {}, signal?: AbortSignal) => api.list<Order>('/orders', { ...query }, signal);

export const ordersQueryOptions = (query: OrderQuery = {}) =>
  queryOptions({
    queryKey: [...keys.orders, 'list', query],
    queryFn: ({ signal }) => getOrders(query, signal),
    placeholderData: keepPreviousData,
  });

export const useOrders = (query: OrderQuery = {}, enabled = true) => useQuery({ ...ordersQueryOptions(query), enabled });
