// "2 licenses and 1 order" for a record still referenced, or null when nothing refers to it.

const counted = (n: number, one: string) => `${n} ${one}${n === 1 ? '' : 's'}`;

/** Undefined counts (not readable, still loading) are not claimed either way. */
export function referencesText(licenses: number | undefined, orders: number | undefined): string | null {
  const parts = [];
  if (licenses) parts.push(counted(licenses, 'license'));
  if (orders) parts.push(counted(orders, 'order'));
  const one = (licenses ?? 0) + (orders ?? 0) === 1;
  return parts.length ? `${parts.join(' and ')} still ${one ? 'refers' : 'refer'} to it` : null;
}
