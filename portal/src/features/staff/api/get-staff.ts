import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { keys } from '../../../lib/query-keys';
import type { Staff } from '../../../types/api';

export const getStaff = (signal?: AbortSignal) => api.get<Staff[]>('/staff', undefined, signal);

export const staffQueryOptions = () =>
  queryOptions({ queryKey: [...keys.staff, 'list'], queryFn: ({ signal }) => getStaff(signal) });

export const useStaff = () => useQuery(staffQueryOptions());
