import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { keys } from '../../../lib/query-keys';
import type { License } from '../../../types/api';

export const getLicense = (id: string, signal?: AbortSignal) => api.get<License>(`/licenses/${encodeURIComponent(id)}`, undefined, signal);

export const licenseQueryOptions = (id: string) =>
  queryOptions({ queryKey: [...keys.licenses, 'detail', id], queryFn: ({ signal }) => getLicense(id, signal) });

export const useLicense = (id: string) => useQuery(licenseQueryOptions(id));
