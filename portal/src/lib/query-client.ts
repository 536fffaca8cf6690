// One react-query client: no retries for client errors (they will not change), a short
// freshness window, and no refetch storms while a dialog is open.
import { MutationCache, QueryClient } from '@tanstack/react-query';
import { ApiError } from './api-client';
import { flash } from './flash';

export function createQueryClient(): QueryClient {
  return new QueryClient({
    // A mutation's `meta.success` is confirmed to the user once it succeeds.
    mutationCache: new MutationCache({
      onSuccess: (_data, _variables, _context, mutation) => {
        const text = mutation.meta?.success;
        if (typeof text === 'string') flash.show(text);
      },
    }),
    defaultOptions: {
      queries: {
        staleTime: 5_000,
        retry: (failureCount, error) =>
          !(error instanceof ApiError && error.status >= 400 && error.status < 500) && failureCount < 2,
      },
      mutations: { retry: false },
    },
  });
}
