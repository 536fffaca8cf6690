import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { invalidate, keys } from '../../../lib/query-keys';
import type { ApiToken, CreatedApiToken } from '../../../types/api';

export interface NewApiToken {
  name: string;
  permissions: string[];
  expiresAtEpochMillis: number | null;
}

export function useApiTokens() {
  return useQuery({ queryKey: [...keys.apiTokens], queryFn: ({ signal }) => api.get<ApiToken[]>('/api-tokens', undefined, signal) });
}

export function useCreateApiToken() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: NewApiToken) => api.post<CreatedApiToken>('/api-tokens', body),
    onSuccess: () => invalidate(queryClient, keys.apiTokens),
  });
}

export function useRevokeApiToken() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.delete(`/api-tokens/${encodeURIComponent(id)}`),
    onSuccess: () => invalidate(queryClient, keys.apiTokens),
  });
}
