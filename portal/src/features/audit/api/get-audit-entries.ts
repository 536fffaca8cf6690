import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { keys } from '../../../lib/query-keys';
import type { AuditEntry } from '../../../types/api';

export interface AuditQuery {
  /** Event name, e.g. `customers.create`. */
  name?: string;
  /** Event names starting with this, e.g. `customers.` */
  namePrefix?: string;
  /** Username, exact. */
  actor?: string;
  /** Epoch millis: at or after. */
  since?: number;
  /** Epoch millis: before. */
  until?: number;
  limit?: number;
  offset?: number;
}

const params = (query: AuditQuery) => ({
  name: query.name,
  namePrefix: query.namePrefix,
  actor: query.actor,
  since: query.since,
  until: query.until,
  limit: query.limit,
  offset: query.offset,
});

export const getAuditEntries = (query: AuditQuery, signal?: AbortSignal) => api.get<AuditEntry[]>('/actions', params(query), signal);

export const auditQueryOptions = (query: AuditQuery) =>
  queryOptions({
    queryKey: [...keys.audit, 'list', query],
    queryFn: ({ signal }) => getAuditEntries(query, signal),
    placeholderData: keepPreviousData,
  });

export const useAuditEntries = (query: AuditQuery, enabled = true) => useQuery({ ...auditQueryOptions(query), enabled });

/** One page of entries and how many match in all (X-Total-Count). */
export const useAuditPage = (query: AuditQuery) =>
  useQuery({
    queryKey: [...keys.audit, 'page', query],
    queryFn: ({ signal }) => api.list<AuditEntry>('/actions', params(query), signal),
    placeholderData: keepPreviousData,
  });

/** Event names recorded so far (GET /actions/names). */
export const useAuditEventNames = () =>
  useQuery({ queryKey: [...keys.audit, 'names'], queryFn: ({ signal }) => api.get<string[]>('/actions/names', undefined, signal) });
