// Plain words for a rule's type, mode and scope.
import type { BlocklistRule } from '../../types/api';

export const TYPE_LABELS: Record<BlocklistRule['type'], string> = { ip: 'IP address', cidr: 'Network (CIDR)', hwid: 'Hardware id' };

export const MODE_LABELS: Record<BlocklistRule['mode'], string> = { block: 'Block', flag: 'Flag only (trial)' };

export const VALUE_HINTS: Record<BlocklistRule['type'], string> = {
  ip: 'IPv4 such as 203.0.113.7 or IPv6 such as 2001:db8::7. An IPv4 rule also matches the same address seen as ::ffff:203.0.113.7.',
  cidr: 'A network such as 203.0.113.0/24 or 2001:db8::/32 (0–32 bits for IPv4, 0–128 for IPv6).',
  hwid: 'Exactly as the client software sends it.',
};

export const MODE_HINT = 'Block refuses validations (reason "Blocked"); Flag only counts hits, to see what a rule would catch before it blocks.';

export function scopeLabel(rule: Pick<BlocklistRule, 'scope' | 'productId' | 'licenseId'>, productName: (id: string) => string): string {
  if (rule.licenseId) return `License ${rule.licenseId}`;
  if (rule.productId) return `Product ${productName(rule.productId)}`;
  return 'Everything';
}
