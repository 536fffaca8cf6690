// IP addresses as this service writes, compares and counts them: one canonical form for the
// recorded client address, blocklist values and rules alike, and the budget holder of every
// per-IP limit. Node's net.isIP decides what an address is (strict: no `010.1`), ipaddr.js
// does the parsing and the RFC 5952 text.
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

/** Parsed address, an IPv4-mapped IPv6 address (however spelled) as its IPv4; null: not an address. */
export function parseIp(text: string): ipaddr.IPv4 | ipaddr.IPv6 | null {
  if (isIP(text) === 0 || text.includes('%')) return null; // a zone id (`fe80::1%eth0`) names an interface, not an address
  const parsed = ipaddr.parse(text);
  return parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress() ? (parsed as ipaddr.IPv6).toIPv4Address() : parsed;
}

/**
 * The canonical text of an IP address, or null when `text` is not one: IPv4 as a dotted quad,
 * an IPv4-mapped IPv6 address (`::ffff:1.2.3.4`, `0:0:0:0:0:ffff:1.2.3.4`, `::ffff:102:304`) as
 * its IPv4, any other IPv6 address as RFC 5952 text (`0:0::1` and `::1` are one address).
 */
export function canonicalIp(text: string): string | null {
  if (isIP(text) === 4) return text; // the common case: no parsing
  const address = parseIp(text);
  if (!address) return null;
  return address.kind() === 'ipv4' ? address.toString() : (address as ipaddr.IPv6).toRFC5952String();
}

/**
 * Whose budget a request spends: every per-IP limit (rate limits, the login limit) keys its
 * counter by this. An IPv6 client has a whole /64 (one network: its host picks any interface
 * id in it at will, as privacy addresses do, RFC 8981), so counting each address alone would
 * give it 2^64 budgets. IPv4 as is, an IPv4-mapped IPv6 address as its IPv4, other IPv6 as its
 * /64 (`2001:db8:1:2::/64`); a key that is not an address (a failure limit's `staff:<id>`) is
 * returned unchanged.
 */
export function rateLimitKeyOf(key: string): string {
  if (!key.includes(':')) return key; // IPv4 (client-ip.ts hands it over canonical): no parsing on the common path
  const address = parseIp(key.replace(/%.*$/, ''));
  if (!address) return key;
  if (address.kind() === 'ipv4') return address.toString();
  const [a, b, c, d] = (address as ipaddr.IPv6).parts as [number, number, number, number];
  return `${a.toString(16)}:${b.toString(16)}:${c.toString(16)}:${d.toString(16)}::/64`;
}
