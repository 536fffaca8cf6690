// The portal's providers and router. Signing out or expiring clears every cached query,
// so the next account never sees the previous one's data.
import { QueryClientProvider } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { RouterProvider } from 'react-router';
import { createQueryClient } from '../lib/query-client';
import { session } from '../lib/session';
import { ErrorBoundary } from './error-boundary';
import { createRouter } from './router';

export function App() {
  const [queryClient] = useState(createQueryClient);
  const [router] = useState(createRouter);

  useEffect(
    () =>
      session.subscribe(() => {
        if (!session.get()) queryClient.clear();
      }),
    [queryClient],
  );

  return (
    <ErrorBoundary>
      <QueryClientProvider client={queryClient}>
        <RouterProvider router={router} />
      </QueryClientProvider>
    </ErrorBoundary>
  );
}
