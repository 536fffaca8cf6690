import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { keys } from '../../../lib/query-keys';
import type { Role } from '../../../types/api';

export const getRoles = (signal?: AbortSignal) => api.get<Role[]>('/roles', undefined, signal);

export const rolesQueryOptions = () =>
  queryOptions({ queryKey: [...keys.roles, 'list'], queryFn: ({ signal }) => getRoles(signal) });

export const useRoles = (enabled = true) => useQuery({ ...rolesQueryOptions(), enabled });
