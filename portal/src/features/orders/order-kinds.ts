// What an order bought (its `kind`) in words, and how many of each kind.
import type { Order } from '../../types/api';

export type OrderKind = Order['kind'];

export const ORDER_KINDS: readonly OrderKind[] = ['new', 'renewal', 'conversion', 'upgrade', 'reuse'];

export const KIND_LABELS: Record<OrderKind, string> = {
  new: 'New license',
  renewal: 'Renewal',
  conversion: 'Trial converted',
  upgrade: 'Tier change',
  reuse: 'Purchase (key reused)',
};

/** How many orders of each kind, only the kinds present, in ORDER_KINDS order: "Renewal × 2". */
export function kindCounts(orders: readonly Order[]): { kind: OrderKind; count: number }[] {
  return ORDER_KINDS.map((kind) => ({ kind, count: orders.filter((order) => order.kind === kind).length })).filter((entry) => entry.count > 0);
}
