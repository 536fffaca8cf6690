import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { keys } from '../../../lib/query-keys';
import type { Order, PageParams } from '../../../types/api';

export interface OrderQuery extends PageParams {
  customerId?: string;
  productId?: string;
}

export const getOrders = (query: OrderQuery = {}, signal?: AbortSignal) => api.get<Order[]>('/orders', { ...query }, signal);

export const ordersQueryOptions = (query: OrderQuery = {}) =>
  queryOptions({
    queryKey: [...keys.orders, 'list', query],
    queryFn: ({ signal }) => getOrders(query, signal),
  });

export const useOrders = (query: OrderQuery = {}, enabled = true) => useQuery({ ...ordersQueryOptions(query), enabled });
