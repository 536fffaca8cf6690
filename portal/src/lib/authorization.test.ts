import { describe, expect, it } from 'vitest';
import { MASTER_ADMIN, PERMISSIONS, groupPermissions, hasAll, hasPermission } from './authorization';

const user = (permissions: string[], isMasterAdmin = false) => ({ permissions, isMasterAdmin });

describe('hasPermission', () => {
  it('grants a permission the account holds and nothing else', () => {
    const support = user(['customers:read', 'licenses:read']);
    expect(hasPermission(support, 'customers:read')).toBe(true);
    expect(hasPermission(support, 'customers:write')).toBe(false);
    expect(hasPermission(support, 'actions:read')).toBe(false);
  });

  it('treats "*" as every permission', () => {
    for (const permission of PERMISSIONS) expect(hasPermission(user(['*']), permission)).toBe(true);
  });

  it('does not read a write permission as read, or a prefix as the whole', () => {
    expect(hasPermission(user(['customers:write']), 'customers:read')).toBe(false);
    expect(hasPermission(user(['customers']), 'customers:read')).toBe(false);
  });

  it('lets only the Master Admin through the Master Admin requirement, even with "*"', () => {
    expect(hasPermission(user(['*'], true), MASTER_ADMIN)).toBe(true);
    expect(hasPermission(user(['*'], false), MASTER_ADMIN)).toBe(false);
  });

  it('refuses everything without a user', () => {
    expect(hasPermission(null, 'customers:read')).toBe(false);
    expect(hasAll(undefined, [])).toBe(true);
    expect(hasAll(user(['orders:read']), ['orders:read', 'orders:write'])).toBe(false);
  });
});

describe('PERMISSIONS', () => {
  it('lists the 18 permission strings of the spec and the two each of webhooks, the blocklist and releases', () => {
    expect(PERMISSIONS).toHaveLength(24);
    expect(PERMISSIONS).toEqual(
      expect.arrayContaining(['webhooks:read', 'webhooks:write', 'blocklist:read', 'blocklist:write', 'releases:read', 'releases:write']),
    );
    expect(PERMISSIONS).toContain('staff:manage');
    expect(PERMISSIONS).toContain('actions:read');
    expect(PERMISSIONS).not.toContain('staff:write');
  });
});

describe('groupPermissions', () => {
  it('groups by resource in grid order and ignores unknown strings', () => {
    expect(groupPermissions(['licenses:write', 'customers:read', 'licenses:read', 'bogus:read'])).toEqual({
      customers: ['read'],
      licenses: ['read', 'write'],
    });
  });
});
