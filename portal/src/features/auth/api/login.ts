import { useMutation } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { session } from '../../../lib/session';
import type { LoginResponse } from '../../../types/api';

export interface Credentials {
  username: string;
  password: string;
  /** Two-factor code (or recovery code), for accounts that have it on. */
  totp?: string;
}

export const login = (credentials: Credentials) =>
  apiRequest<LoginResponse>('POST', '/auth/login', { body: credentials, anonymous: true });

/** Signs in and starts the session (token kept in localStorage, shared by the portal's tabs). */
export function useLogin() {
  return useMutation({
    mutationFn: login,
    onSuccess: (response) => session.start(response),
  });
}
