import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { keys } from '../../../lib/query-keys';
import type { Role } from '../../../types/api';

export const getRole = (id: string, signal?: AbortSignal) => api.get<Role>(`/roles/${encodeURIComponent(id)}`, undefined, signal);

export const roleQueryOptions = (id: string) =>
  queryOptions({ queryKey: [...keys.roles, 'detail', id], queryFn: ({ signal }) => getRole(id, signal) });

export const useRole = (id: string) => useQuery(roleQueryOptions(id));
