// Signing keys (Master Admin): list, create (next, or current at once for a leaked key),
// activate a next key, delete a next or retired one; and the public JWK Set.
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { invalidate, keys } from '../../../lib/query-keys';
import type { JwkSet, SigningKey } from '../../../types/api';

export const signingKeysQueryOptions = () =>
  queryOptions({ queryKey: [...keys.signingKeys, 'list'], queryFn: ({ signal }) => api.get<SigningKey[]>('/admin/signing-keys', undefined, signal) });

export const useSigningKeys = () => useQuery(signingKeysQueryOptions());

/** The public keys a client pins (the same set GET /.well-known/jwks.json serves). */
export const useJwks = () =>
  useQuery({ queryKey: [...keys.signingKeys, 'jwks'], queryFn: ({ signal }) => api.get<JwkSet>('/.well-known/jwks.json', undefined, signal) });

/** Creates a key: `next` by default, or current at once with `activateNow` (a leaked key). */
export function useCreateSigningKey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (activateNow: boolean) => api.post<SigningKey>('/admin/signing-keys', activateNow ? { activateNow: true } : {}),
    onSuccess: () => invalidate(queryClient, keys.signingKeys),
  });
}

export function useActivateSigningKey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (kid: string) => api.post<SigningKey>(`/admin/signing-keys/${encodeURIComponent(kid)}/activate`),
    onSuccess: () => invalidate(queryClient, keys.signingKeys),
  });
}

export function useDeleteSigningKey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (kid: string) => api.delete(`/admin/signing-keys/${encodeURIComponent(kid)}`),
    onSuccess: () => invalidate(queryClient, keys.signingKeys),
  });
}
