import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { invalidate, keys } from '../../../lib/query-keys';
import type { Customer, CustomerInput } from '../../../types/api';

/**
 * PATCH (a partial update, issue #30) with every field the form edits: a cleared note is sent
 * as null and no socials as {}, since PATCH keeps what a body leaves out.
 */
export const updateCustomer = ({ id, input }: { id: string; input: CustomerInput }) =>
  api.patch<Customer>(`/customers/${encodeURIComponent(id)}`, { ...input, note: input.note ?? null, socials: input.socials ?? {} });

export function useUpdateCustomer() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: updateCustomer, meta: { success: 'Customer saved.' }, onSuccess: () => invalidate(queryClient, keys.customers) });
}
