import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { keys } from '../../../lib/query-keys';
import type { Customer, PageParams } from '../../../types/api';

export interface CustomerQuery extends PageParams {
  /** Text searched in names. */
  q?: string;
  email?: string;
}

/** One page (or, without limit/offset, all) of the customers matching `query`, and how many match in all. */
export const getCustomers = (query: CustomerQuery = {}, signal?: AbortSignal) => api.list<Customer>('/customers', { ...query }, signal);

export const customersQueryOptions = (query: CustomerQuery = {}) =>
  queryOptions({
    queryKey: [...keys.customers, 'list', query],
    queryFn: ({ signal }) => getCustomers(query, signal),
    placeholderData: keepPreviousData,
  });

export const useCustomers = (query: CustomerQuery = {}, enabled = true) => useQuery({ ...customersQueryOptions(query), enabled });
