import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { keys } from '../../../lib/query-keys';
import type { LicenseStats } from '../../../types/api';

/** Licenses by status and validation attempts per hour since `since` (epoch millis). */
export const getLicenseStats = (since: number, signal?: AbortSignal) => api.get<LicenseStats>('/licenses/stats', { since }, signal);

// Under the licenses key: every license change refreshes the figures too.
export const licenseStatsQueryOptions = (since: number) =>
  queryOptions({
    queryKey: [...keys.licenses, 'stats', since],
    queryFn: ({ signal }) => getLicenseStats(since, signal),
  });

export const useLicenseStats = (since: number, enabled = true) => useQuery({ ...licenseStatsQueryOptions(since), enabled });
