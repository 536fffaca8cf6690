// The signed-in account: its details, password change, two-factor and sign-out.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, apiRequest } from '../../../lib/api-client';
import { invalidate, keys } from '../../../lib/query-keys';
import { session } from '../../../lib/session';
import type { Account } from '../../../types/api';

export function useAccount() {
  return useQuery({ queryKey: [...keys.account], queryFn: ({ signal }) => api.get<Account>('/staff/me', undefined, signal) });
}

export function useChangePassword() {
  return useMutation({
    mutationFn: (body: { currentPassword: string; newPassword: string }) => api.put<void>('/staff/me/password', body),
  });
}

export function useStartTotp() {
  return useMutation({ mutationFn: () => api.post<{ secret: string; otpauthUri: string }>('/staff/me/totp') });
}

export function useConfirmTotp() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: { password: string; code: string }) => api.post<{ recoveryCodes: string[] }>('/staff/me/totp/confirm', body),
    onSuccess: () => invalidate(queryClient, keys.account),
  });
}

export function useDisableTotp() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (password: string) => apiRequest<void>('DELETE', '/staff/me/totp', { body: { password } }),
    onSuccess: () => invalidate(queryClient, keys.account),
  });
}

/** Ends the login token on the server (every instance), then the local session. */
export async function signOut(): Promise<void> {
  try {
    await api.post<void>('/auth/logout');
  } catch {
    // Signed out locally all the same; the token may have ended already.
  }
  session.end('signed-out');
}
