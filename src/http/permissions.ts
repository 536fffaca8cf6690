// The one permission rule, generic over who asks: the Master Admin holds every permission,
// anyone else the ones their roles (or API token) list. Routes that show more to some
// readers than to others ask it; the permission hook (authenticate.ts) asks it for every route.

/** What a permission check needs of a caller (an Actor, modules/auth/actor.ts). */
export interface PermissionHolder {
  isMasterAdmin: boolean;
  permissions: readonly string[];
}

export const hasPermission = (holder: PermissionHolder, permission: string): boolean =>
  holder.isMasterAdmin || holder.permissions.includes(permission);
