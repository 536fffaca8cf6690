// The permission strings of SPEC.md (and DECISIONS.md: webhooks, blocklist, releases). The Master Admin holds the wildcard instead.
export const PERMISSIONS = [
  'customers:read', 'customers:write', 'customers:delete',
  'products:read', 'products:write', 'products:delete',
  'licenses:read', 'licenses:write', 'licenses:delete',
  'orders:read', 'orders:write', 'orders:delete',
  'roles:read', 'roles:write', 'roles:delete',
  'staff:read', 'staff:manage',
  'actions:read',
  'webhooks:read', 'webhooks:write',
  'blocklist:read', 'blocklist:write',
  'releases:read', 'releases:write',
] as const;

export type Permission = (typeof PERMISSIONS)[number];

export const WILDCARD = '*';
