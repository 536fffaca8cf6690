// The portal's sections and the permission each needs; the menu shows only those the
// signed-in account may open.
import { MASTER_ADMIN, hasPermission, type Requirement } from '../lib/authorization';
import type { SessionUser } from '../types/api';

export interface NavItem {
  to: string;
  label: string;
  requires: Requirement | null;
}

export const NAV_ITEMS: NavItem[] = [
  { to: '/', label: 'Dashboard', requires: null },
  { to: '/customers', label: 'Customers', requires: 'customers:read' },
  { to: '/products', label: 'Products', requires: 'products:read' },
  { to: '/licenses', label: 'Licenses', requires: 'licenses:read' },
  { to: '/orders', label: 'Orders', requires: 'orders:read' },
  { to: '/staff', label: 'Staff', requires: 'staff:read' },
  { to: '/roles', label: 'Roles', requires: 'roles:read' },
  { to: '/registration-keys', label: 'Registration keys', requires: MASTER_ADMIN },
  { to: '/signing-keys', label: 'Signing keys', requires: MASTER_ADMIN },
  { to: '/webhooks', label: 'Webhooks', requires: 'webhooks:read' },
  { to: '/blocklist', label: 'Blocklist', requires: 'blocklist:read' },
  { to: '/trace', label: 'Trace a leaked jar', requires: 'releases:read' },
  { to: '/audit', label: 'Audit log', requires: 'actions:read' },
];

export function visibleNavItems(user: Pick<SessionUser, 'permissions' | 'isMasterAdmin'> | null | undefined): NavItem[] {
  return NAV_ITEMS.filter((item) => item.requires === null || hasPermission(user, item.requires));
}
