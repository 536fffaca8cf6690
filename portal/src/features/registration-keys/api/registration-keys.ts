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

/** `roleIds` empty: a key without roles (the registration chooses any, as SPEC.md says). */
export const generateRegistrationKey = ({ note, roleIds }: { note?: string; roleIds: string[] }) =>
  api.post<RegistrationKey>('/admin/registration-keys', { ...(note ? { note } : {}), ...(roleIds.length > 0 ? { roleIds } : {}) });

/** The portal's registration page, preset to ask for the key's roles. */
export const registrationLink = (roleIds: readonly string[]) =>
  `${window.location.origin}/portal/register${roleIds.length > 0 ? `?roles=${roleIds.map(encodeURIComponent).join(',')}` : ''}`;

export const revokeRegistrationKey = (id: string) => api.delete(`/admin/registration-keys/${encodeURIComponent(id)}`);

export function useGenerateRegistrationKey() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: generateRegistrationKey, onSuccess: () => invalidate(queryClient, keys.registrationKeys) });
}

export function useRevokeRegistrationKey() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: revokeRegistrationKey, meta: { success: 'Registration key revoked.' }, onSuccess: () => invalidate(queryClient, keys.registrationKeys) });
}
