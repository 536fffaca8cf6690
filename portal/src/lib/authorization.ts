// What the signed-in account may do, from the login response's `user.permissions`
// ("*" grants everything). The API enforces permissions; the portal only hides what
// would be refused anyway.
import type { SessionUser } from '../types/api';

export const RESOURCES = ['customers', 'products', 'licenses', 'orders', 'roles', 'staff', 'actions', 'webhooks', 'blocklist', 'releases'] as const;
export type Resource = (typeof RESOURCES)[number];

/** The actions each resource has, in the order the permission grid shows them. */
export const RESOURCE_ACTIONS: Record<Resource, readonly string[]> = {
  customers: ['read', 'write', 'delete'],
  products: ['read', 'write', 'delete'],
  licenses: ['read', 'write', 'delete'],
  orders: ['read', 'write', 'delete'],
  roles: ['read', 'write', 'delete'],
  staff: ['read', 'manage'],
  actions: ['read'],
  webhooks: ['read', 'write'],
  blocklist: ['read', 'write'],
  releases: ['read', 'write'],
};

/** Every permission string of SPEC.md (and DECISIONS.md's `webhooks:*`, `blocklist:*`, `releases:*`), e.g. `customers:read`. */
export const PERMISSIONS: string[] = RESOURCES.flatMap((resource) =>
  RESOURCE_ACTIONS[resource].map((action) => `${resource}:${action}`),
);

export const WILDCARD = '*';

/** Special requirement: only the Master Admin (registration keys). */
export const MASTER_ADMIN = 'masterAdmin';

export type Requirement = string;

export function hasPermission(user: Pick<SessionUser, 'permissions' | 'isMasterAdmin'> | null | undefined, required: Requirement): boolean {
  if (!user) return false;
  if (required === MASTER_ADMIN) return user.isMasterAdmin;
  return user.permissions.includes(WILDCARD) || user.permissions.includes(required);
}

/** True when the user holds every one of the requirements. */
export function hasAll(user: Pick<SessionUser, 'permissions' | 'isMasterAdmin'> | null | undefined, required: Requirement[]): boolean {
  return required.every((permission) => hasPermission(user, permission));
}

/** Permissions grouped for display: `{customers: ['read', 'write'], …}`, unknown strings ignored. */
export function groupPermissions(permissions: string[]): Partial<Record<Resource, string[]>> {
  const groups: Partial<Record<Resource, string[]>> = {};
  for (const resource of RESOURCES) {
    const actions = RESOURCE_ACTIONS[resource].filter((action) => permissions.includes(`${resource}:${action}`));
    if (actions.length > 0) groups[resource] = actions;
  }
  return groups;
}
