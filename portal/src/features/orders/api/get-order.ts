import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { keys } from '../../../lib/query-keys';
import type { Order } from '../../../types/api';

export const getOrder = (id: string, signal?: AbortSignal) => api.get<Order>(`/orders/${encodeURIComponent(id)}`, undefined, signal);

export const orderQueryOptions = (id: string) =>
  queryOptions({ queryKey: [...keys.orders, 'detail', id], queryFn: ({ signal }) => getOrder(id, signal) });

export const useOrder = (id: string) => useQuery(orderQueryOptions(id));
