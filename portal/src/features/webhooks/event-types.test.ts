import { describe, expect, it } from 'vitest';
import { eventsSummary, groupEventTypes, subscribesToAll } from './event-types';

describe('groupEventTypes', () => {
  it('groups by the part before the first dot, business records before administration', () => {
    const groups = groupEventTypes([
      'apiToken.create', 'customers.create', 'licenses.create', 'licenses.slot.bind', 'marketplace.license.create', 'licenses.expiring', 'staff.totp.enable',
    ]);
    expect(groups.map((g) => [g.id, g.label])).toEqual([
      ['licenses', 'Licenses'],
      ['customers', 'Customers'],
      ['marketplace', 'Marketplace'],
      ['staff', 'Staff'],
      ['apiToken', 'API tokens'],
    ]);
    expect(groups[0]!.types).toEqual(['licenses.create', 'licenses.slot.bind', 'licenses.expiring']);
  });

  it('keeps types it has no label for, after the known groups, and drops "*" and repeats', () => {
    const groups = groupEventTypes(['zeta.thing', 'orders.create', 'alpha.other', '*', 'orders.create']);
    expect(groups.map((g) => g.label)).toEqual(['Orders', 'alpha', 'zeta']);
    expect(groups[0]!.types).toEqual(['orders.create']);
  });

  it('gives no groups for no types', () => {
    expect(groupEventTypes([])).toEqual([]);
  });
});

describe('eventsSummary', () => {
  it('says all events for ["*"]', () => {
    expect(eventsSummary(['*'])).toEqual({ types: [], more: 0, all: true });
    expect(subscribesToAll(['*'])).toBe(true);
    expect(subscribesToAll(['licenses.create'])).toBe(false);
  });

  it('shows the first few types and counts the rest', () => {
    expect(eventsSummary(['a.1', 'a.2', 'a.3', 'a.4', 'a.5'])).toEqual({ types: ['a.1', 'a.2', 'a.3'], more: 2, all: false });
    expect(eventsSummary(['a.1'])).toEqual({ types: ['a.1'], more: 0, all: false });
  });
});
