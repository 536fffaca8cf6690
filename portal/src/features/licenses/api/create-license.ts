import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { invalidate, keys } from '../../../lib/query-keys';
import type { License, LicenseCreateInput } from '../../../types/api';

export const createLicense = (input: LicenseCreateInput) => api.post<License>('/licenses', input);

export function useCreateLicense() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: createLicense, meta: { success: 'License issued.' }, onSuccess: () => invalidate(queryClient, keys.licenses) });
}
