import { describe, expect, it } from 'vitest';
import type { Order } from '../../types/api';
import { kindCounts } from './order-kinds';

const order = (id: string, kind: Order['kind'], licenseId: string | null, licenseIds: string[], createdAtEpochMillis: number): Order => ({
  id,
  customerId: 'c',
  productIds: ['p'],
  totalAmount: 1,
  licenseIds,
  createdAtEpochMillis,
  kind,
  licenseId,
});

describe("orders by kind", () => {
  const orders = [
    order('a', 'new', 'L1', ['L1'], 1),
    order('b', 'renewal', 'L1', ['L1'], 3),
    order('c', 'renewal', 'L2', ['L2'], 2),
    order('d', 'upgrade', null, ['L3', 'L1'], 4),
    order('e', 'reuse', 'L2', [], 5),
  ];

  it('counts them per kind, only the kinds present, in the order new, renewal, conversion, upgrade, reuse', () => {
    expect(kindCounts(orders.slice(0, 2))).toEqual([
      { kind: 'new', count: 1 },
      { kind: 'renewal', count: 1 },
    ]);
    expect(kindCounts(orders)).toEqual([
      { kind: 'new', count: 1 },
      { kind: 'renewal', count: 2 },
      { kind: 'upgrade', count: 1 },
      { kind: 'reuse', count: 1 },
    ]);
  });
});
