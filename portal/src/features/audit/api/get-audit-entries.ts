import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { keys } from '../../../lib/query-keys';
import type { AuditEntry } from '../../../types/api';

export interface AuditQuery {
  /** Event name, e.g. `customers.create`. */
  name?: string;
  limit?: number;
}

export const getAuditEntries = (query: AuditQuery, signal?: AbortSignal) =>
  api.get<AuditEntry[]>('/actions', { name: query.name, limit: query.limit }, signal);

export const auditQueryOptions = (query: AuditQuery) =>
  queryOptions({
    queryKey: [...keys.audit, 'list', query],
    queryFn: ({ signal }) => getAuditEntries(query, signal),
    placeholderData: keepPreviousData,
  });

export const useAuditEntries = (query: AuditQuery, enabled = true) => useQuery({ ...auditQueryOptions(query), enabled });
