import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { keys } from '../../../lib/query-keys';
import type { Customer } from '../../../types/api';

export const getCustomer = (id: string, signal?: AbortSignal) => api.get<Customer>(`/customers/${encodeURIComponent(id)}`, undefined, signal);

export const customerQueryOptions = (id: string) =>
  queryOptions({ queryKey: [...keys.customers, 'detail', id], queryFn: ({ signal }) => getCustomer(id, signal) });

export const useCustomer = (id: string) => useQuery(customerQueryOptions(id));
