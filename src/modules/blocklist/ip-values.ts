// Blocklist values as the service stores and compares them: an IP address in the service's
// one canonical form (lib/ip-address.ts, as the recorded client address) and a CIDR
// normalised to its network, and both as numbers for the prefix index. Node's net.isIP
// decides what an address is (strict: no `010.1`, no zone ids), ipaddr.js does the arithmetic.
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';
import { parseIp } from '../../lib/ip-address.js';

export type Family = 4 | 6;

/** An address as numbers: IPv4 as an unsigned 32-bit integer, IPv6 as a 128-bit bigint. */
export type NumericAddress = { family: 4; value: number } | { family: 6; value: bigint };

/** The CIDR of IPv4-mapped IPv6 addresses: within it, a rule or an address is IPv4. */
const MAPPED_PREFIX = 96;

const ipv4Number = (octets: number[]): number => ((octets[0]! << 24) | (octets[1]! << 16) | (octets[2]! << 8) | octets[3]!) >>> 0;

const ipv6Number = (parts: number[]): bigint => parts.reduce((acc, part) => (acc << 16n) | BigInt(part), 0n);

/** `network/prefix` of a CIDR (host bits cleared; IPv4-mapped IPv6 with prefix >= 96 as IPv4), or null when malformed. */
export function normalizeCidrValue(value: string): string | null {
  const match = /^([^/]+)\/(\d{1,3})$/.exec(value.trim());
  if (!match) return null;
  const text = match[1]!;
  let prefix = Number(match[2]);
  if (isIP(text) === 0 || text.includes('%')) return null;
  const parsed = ipaddr.parse(text);
  if (parsed.kind() === 'ipv4') {
    if (prefix > 32) return null;
    return `${ipaddr.IPv4.networkAddressFromCIDR(`${text}/${prefix}`).toString()}/${prefix}`;
  }
  if (prefix > 128) return null;
  const v6 = parsed as ipaddr.IPv6;
  if (v6.isIPv4MappedAddress() && prefix >= MAPPED_PREFIX) {
    prefix -= MAPPED_PREFIX;
    return `${ipaddr.IPv4.networkAddressFromCIDR(`${v6.toIPv4Address().toString()}/${prefix}`).toString()}/${prefix}`;
  }
  return `${ipaddr.IPv6.networkAddressFromCIDR(`${v6.toString()}/${prefix}`).toRFC5952String()}/${prefix}`;
}

/** An address (any form the service may see) as numbers; null when it is not one. */
export function numericAddress(text: string): NumericAddress | null {
  const family = isIP(text);
  if (family === 4) return { family: 4, value: ipv4Number(text.split('.').map(Number)) }; // the hot path: no parser
  if (family === 0) return null;
  const address = parseIp(text);
  if (!address) return null;
  return address.kind() === 'ipv4'
    ? { family: 4, value: ipv4Number(address.toByteArray()) }
    : { family: 6, value: ipv6Number((address as ipaddr.IPv6).parts) };
}

/** A normalised CIDR as its family, prefix length and network number shifted right past the host bits. */
export function cidrKey(normalized: string): { family: Family; prefix: number; network: number | bigint } {
  const [text, bits] = normalized.split('/') as [string, string];
  const prefix = Number(bits);
  const address = numericAddress(text)!;
  return address.family === 4
    ? { family: 4, prefix, network: prefix === 0 ? 0 : address.value >>> (32 - prefix) }
    : { family: 6, prefix, network: address.value >> BigInt(128 - prefix) };
}
