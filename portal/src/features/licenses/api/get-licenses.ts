import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { keys } from '../../../lib/query-keys';
import type { License, PageParams } from '../../../types/api';

export interface LicenseQuery extends PageParams {
  customerId?: string;
  productId?: string;
  /** Part of the key. */
  key?: string;
  /** Lifecycle statuses, comma-separated (active, notStarted, grace, expired, revoked). */
  status?: string;
  /** true: only trials; false: only licenses that are not. */
  trial?: boolean;
  /** Only licenses suspected of sharing. */
  sharing?: 'suspected';
}

/** One page (or, without limit/offset, all) of the licenses matching `query`, and how many match in all. */
export const getLicenses = (query: LicenseQuery = {}, signal?: AbortSignal) => api.list<License>('/licenses', { ...query }, signal);

export const licensesQueryOptions = (query: LicenseQuery = {}) =>
  queryOptions({
    queryKey: [...keys.licenses, 'list', query],
    queryFn: ({ signal }) => getLicenses(query, signal),
    placeholderData: keepPreviousData,
  });

export const useLicenses = (query: LicenseQuery = {}, enabled = true) => useQuery({ ...licensesQueryOptions(query), enabled });
