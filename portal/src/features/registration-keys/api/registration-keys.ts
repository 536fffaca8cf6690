// Registration keys (Master Admin only): list, generate, revoke.
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { invalidate, keys } from '../../../lib/query-keys';
import type { RegistrationKey } from '../../../types/api';

export const getRegistrationKeys = (signal?: AbortSignal) =>
  api.get<RegistrationKey[]>('/admin/registration-keys', undefined, signal);

export const registrationKeysQueryOptions = () =>
  queryOptions({ queryKey: [...keys.registrationKeys, 'list'], queryFn: ({ signal }) => getRegistrationKeys(signal) });

export const useRegistrationKeys = () => useQuery(registrationKeysQueryOptions());

export const generateRegistrationKey = (note?: string) =>
  api.post<RegistrationKey>('/admin/registration-keys', note ? { note } : {});

export const revokeRegistrationKey = (id: string) => api.delete(`/admin/registration-keys/${encodeURIComponent(id)}`);

export function useGenerateRegistrationKey() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: generateRegistrationKey, onSuccess: () => invalidate(queryClient, keys.registrationKeys) });
}

export function useRevokeRegistrationKey() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: revokeRegistrationKey, meta: { success: 'Registration key revoked.' }, onSuccess: () => invalidate(queryClient, keys.registrationKeys) });
}
