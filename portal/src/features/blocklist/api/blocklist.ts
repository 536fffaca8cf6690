// Blocklist rules: a page of them (filtered, with their total), create, change, delete.
// Every change is in force on the service at once, so the lists are refetched after it.
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { invalidate, keys } from '../../../lib/query-keys';
import type { BlocklistRule, BlocklistRuleChange, BlocklistRuleInput, PageParams } from '../../../types/api';

export interface RuleQuery extends PageParams {
  type?: 'ip' | 'cidr' | 'hwid';
  mode?: 'block' | 'flag';
  productId?: string;
  licenseId?: string;
  q?: string;
  status?: 'active' | 'expired';
}

const rulePath = (id: string) => `/blocklist/${encodeURIComponent(id)}`;

export const useBlocklist = (query: RuleQuery = {}, enabled = true) =>
  useQuery({
    queryKey: [...keys.blocklist, 'list', query],
    queryFn: ({ signal }) => api.list<BlocklistRule>('/blocklist', { ...query }, signal),
    placeholderData: keepPreviousData,
    enabled,
  });

export function useCreateRule() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: BlocklistRuleInput) => api.post<BlocklistRule>('/blocklist', input),
    onSuccess: () => invalidate(queryClient, keys.blocklist),
  });
}

export function useChangeRule() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, change }: { id: string; change: BlocklistRuleChange }) => api.patch<BlocklistRule>(rulePath(id), change),
    onSuccess: () => invalidate(queryClient, keys.blocklist),
  });
}

export function useDeleteRule() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.delete(rulePath(id)),
    meta: { success: 'Blocklist rule deleted.' },
    onSuccess: () => invalidate(queryClient, keys.blocklist),
  });
}
