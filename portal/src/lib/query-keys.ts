// Query keys of every resource. Lists and details of one resource share its first key
// part, so invalidating ['customers'] refreshes both. Every mutation also writes an
// audit entry, hence AUDIT in the keys mutations invalidate.
import type { QueryClient } from '@tanstack/react-query';

export const keys = {
  customers: ['customers'] as const,
  products: ['products'] as const,
  licenses: ['licenses'] as const,
  orders: ['orders'] as const,
  staff: ['staff'] as const,
  roles: ['roles'] as const,
  registrationKeys: ['registration-keys'] as const,
  signingKeys: ['signing-keys'] as const,
  audit: ['actions'] as const,
  account: ['staff', 'me'] as const,
  apiTokens: ['api-tokens'] as const,
  webhooks: ['webhook-endpoints'] as const,
  blocklist: ['blocklist'] as const,
  releases: ['releases'] as const,
};

/** Marks the given resources stale (and the audit log, which every change writes to). */
export function invalidate(queryClient: QueryClient, ...resources: (readonly string[])[]): Promise<void> {
  return Promise.all(
    [...resources, keys.audit].map((queryKey) => queryClient.invalidateQueries({ queryKey: [...queryKey] })),
  ).then(() => undefined);
}
