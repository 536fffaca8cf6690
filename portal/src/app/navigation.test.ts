import { describe, expect, it } from 'vitest';
import { visibleNavItems } from './navigation';

const labels = (permissions: string[], isMasterAdmin = false) => visibleNavItems({ permissions, isMasterAdmin }).map((item) => item.label);

describe('navigation by permission', () => {
  it('shows the Master Admin everything', () => {
    expect(labels(['*'], true)).toEqual([
      'Dashboard', 'Customers', 'Products', 'Licenses', 'Orders', 'Staff', 'Roles', 'Registration keys', 'Signing keys', 'Webhooks', 'Blocklist', 'Trace a leaked jar', 'Audit log',
    ]);
  });

  it('shows a support role only what it may read', () => {
    expect(labels(['customers:read', 'licenses:read', 'licenses:write'])).toEqual(['Dashboard', 'Customers', 'Licenses']);
  });

  it('shows Webhooks to an account that may read them', () => {
    expect(labels(['webhooks:read'])).toEqual(['Dashboard', 'Webhooks']);
    expect(labels(['webhooks:write'])).toEqual(['Dashboard']);
  });

  it('shows the leaked-jar trace to an account that may read releases', () => {
    expect(labels(['releases:read'])).toEqual(['Dashboard', 'Trace a leaked jar']);
    expect(labels(['releases:write'])).toEqual(['Dashboard']);
  });

  it('hides registration keys from a "*" account that is not the Master Admin', () => {
    expect(labels(['*'])).not.toContain('Registration keys');
    expect(labels(['*'])).not.toContain('Signing keys');
  });

  it('leaves only the dashboard for an account without permissions', () => {
    expect(labels([])).toEqual(['Dashboard']);
  });
});
