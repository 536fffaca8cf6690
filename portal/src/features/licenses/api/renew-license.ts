// POST /licenses/{id}/renew: one period (the product's, or `days`) added as a subscription
// purchase would; with `amount` an order of kind renewal is recorded. The license and the
// orders are reloaded.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { invalidate, keys } from '../../../lib/query-keys';
import type { License, RenewBody } from '../../../types/api';

export function useRenewLicense(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: RenewBody) => api.post<License>(`/licenses/${encodeURIComponent(id)}/renew`, body),
    onSuccess: (renewed) => {
      queryClient.setQueryData([...keys.licenses, 'detail', renewed.id], renewed);
      return invalidate(queryClient, keys.licenses, keys.orders);
    },
  });
}
