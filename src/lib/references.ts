// Wording of the 409 for deleting a record that licenses or orders still reference.

export interface ReferenceCounts {
  licenses: number;
  orders: number;
  /** a product's releases (their files would go with it) */
  releases?: number;
}

const count = (n: number, noun: string) => `${n} ${noun}${n === 1 ? '' : 's'}`;

/** "Customer is referenced by 2 licenses and 1 order", or null when nothing refers to it. */
export function referencedByMessage(what: string, counts: ReferenceCounts): string | null {
  const parts = [];
  if (counts.licenses > 0) parts.push(count(counts.licenses, 'license'));
  if (counts.orders > 0) parts.push(count(counts.orders, 'order'));
  if ((counts.releases ?? 0) > 0) parts.push(count(counts.releases!, 'release'));
  return parts.length === 0 ? null : `${what} is referenced by ${parts.join(' and ')}`;
}
