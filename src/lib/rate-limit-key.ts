// Whose budget a request spends: every per-IP limit (rate limits, the login limit) keys its
// counter by this. An IPv6 client has a whole /64 (one network: its host picks any interface
// id in it at will, as privacy addresses do, RFC 8981), so counting each address alone would
// give it 2^64 budgets.
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

/**
 * The budget holder of `key`: an IPv4 address as is, an IPv4-mapped IPv6 address (however
 * spelled) as its IPv4, any other IPv6 address as its /64, written as its first four groups
 * in lower-case hex without leading zeros (`2001:db8:1:2::/64`, `0:0:0:0::/64` for `::1`).
 * A key that is not an address (a failure limit's `staff:<id>`) is returned unchanged.
 */
export function rateLimitKeyOf(key: string): string {
  if (!key.includes(':')) return key; // IPv4 (client-ip.ts hands it over canonical): no parsing on the common path
  if (isIP(key) !== 6) return key;
  const address = ipaddr.IPv6.parse(key);
  if (address.isIPv4MappedAddress()) return address.toIPv4Address().toString();
  const [a, b, c, d] = address.parts as [number, number, number, number];
  return `${a.toString(16)}:${b.toString(16)}:${c.toString(16)}:${d.toString(16)}::/64`;
}
