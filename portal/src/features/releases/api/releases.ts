// A product's releases: the paged list, one release, create, change its notes, publish,
// deprecate, archive and delete. Every change refreshes the releases and the audit log.
import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { flash } from '../../../lib/flash';
import { invalidate, keys } from '../../../lib/query-keys';
import type { CreateReleaseBody, Release } from '../../../types/api';
import type { Transition } from '../release-rules';

export const releasePath = (id: string) => `/releases/${encodeURIComponent(id)}`;
const productReleasesPath = (productId: string) => `/products/${encodeURIComponent(productId)}/releases`;

export const releasesQueryOptions = (productId: string, page: { limit: number; offset: number }) =>
  queryOptions({
    queryKey: [...keys.releases, 'list', productId, page],
    queryFn: ({ signal }) => api.list<Release>(productReleasesPath(productId), page, signal),
    placeholderData: keepPreviousData,
  });

export const useReleases = (productId: string, page: { limit: number; offset: number }) => useQuery(releasesQueryOptions(productId, page));

export const releaseQueryOptions = (id: string) =>
  queryOptions({ queryKey: [...keys.releases, 'detail', id], queryFn: ({ signal }) => api.get<Release>(releasePath(id), undefined, signal) });

export const useRelease = (id: string) => useQuery(releaseQueryOptions(id));

export function useCreateRelease(productId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: CreateReleaseBody) => api.post<Release>(productReleasesPath(productId), input),
    meta: { success: 'Release created. Upload its file, then publish it.' },
    onSuccess: () => invalidate(queryClient, keys.releases),
  });
}

/** Keeps the page's copy in step with the answer, then refreshes the lists. */
function useSaved() {
  const queryClient = useQueryClient();
  return (saved: Release) => {
    queryClient.setQueryData([...keys.releases, 'detail', saved.id], saved);
    return invalidate(queryClient, keys.releases);
  };
}

export function useUpdateReleaseNotes(id: string) {
  const saved = useSaved();
  return useMutation({
    mutationFn: (notes: string | null) => api.patch<Release>(releasePath(id), { notes }),
    onSuccess: saved,
  });
}

const DONE: Record<Transition, string> = { publish: 'Release published.', deprecate: 'Release deprecated.', archive: 'Release archived.' };

export function useReleaseTransition(id: string) {
  const saved = useSaved();
  return useMutation({
    mutationFn: (to: Transition) => api.post<Release>(`${releasePath(id)}/${to}`),
    // Its message depends on the call, which `meta.success` (one per mutation) cannot say.
    onSuccess: (release, to) => {
      flash.show(DONE[to]);
      return saved(release);
    },
  });
}

export function useDeleteRelease() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.delete(releasePath(id)),
    meta: { success: 'Release deleted.' },
    onSuccess: (_answer, id) => {
      // Not refetched: the page that showed it is being left.
      queryClient.removeQueries({ queryKey: [...keys.releases, 'detail', id] });
      return invalidate(queryClient, keys.releases);
    },
  });
}
