import { useMutation } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import type { Staff } from '../../../types/api';

export interface Registration {
  registrationKey: string;
  username: string;
  email: string;
  password: string;
  roleIds: string[];
}

export const register = (registration: Registration) =>
  apiRequest<Staff>('POST', '/staff/register', { body: registration, anonymous: true });

export function useRegister() {
  return useMutation({ mutationFn: register });
}
