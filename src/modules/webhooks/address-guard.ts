// The SSRF guard: webhook targets must be public. Checked when an endpoint is saved and
// again at every delivery, inside the connection's own DNS lookup, so that a name that
// resolves elsewhere later (DNS rebinding) is caught at the address actually dialled.
import { BlockList, isIP } from 'node:net';
import { lookup as dnsLookup, type LookupAddress, type LookupAllOptions } from 'node:dns';
import { lookup as dnsLookupAsync } from 'node:dns/promises';

const blockedV4 = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8], // "this network", unspecified
  ['10.0.0.0', 8],
  ['100.64.0.0', 10], // shared address space (carrier-grade NAT)
  ['127.0.0.0', 8],
  ['169.254.0.0', 16], // link-local, cloud metadata
  ['172.16.0.0', 12],
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.0.2.0', 24], // documentation (TEST-NET-1)
  ['192.88.99.0', 24], // deprecated 6to4 relay anycast
  ['192.168.0.0', 16],
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24], // documentation (TEST-NET-2)
  ['203.0.113.0', 24], // documentation (TEST-NET-3)
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, broadcast
] as const) blockedV4.addSubnet(net, prefix, 'ipv4');

// IPv6 outside global unicast (2000::/3) is refused whole: unspecified, loopback,
// IPv4-compatible, IPv4-translated (::ffff:0:a.b.c.d), NAT64 (64:ff9b::/96 and the local
// 64:ff9b:1::/48), discard (100::/64), unique local, link-local, multicast and the rest
// of the reserved space. Inside 2000::/3 these are not public either:
const blockedV6 = new BlockList();
for (const [net, prefix] of [
  ['2001::', 23], // IETF protocol assignments: Teredo (tunnels to an IPv4 address), benchmarking, ORCHID
  ['2001:db8::', 32], // documentation
  ['3fff::', 20], // documentation (RFC 9637)
] as const) blockedV6.addSubnet(net, prefix, 'ipv6');

/** The eight 16-bit groups of a valid IPv6 address (zone dropped, a dotted IPv4 tail read as two groups). */
function ipv6Groups(address: string): number[] {
  let text = address.toLowerCase().replace(/%.*$/, '');
  const dotted = /^(.*:)(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(2).map(Number) as [number, number, number, number];
    text = `${dotted[1]}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const parse = (part: string | undefined) => (part ? part.split(':').map((group) => parseInt(group, 16)) : []);
  const [head, tail] = text.split('::');
  const groups = [...parse(head), ...(tail === undefined ? [] : [...parse(tail)])];
  if (tail === undefined) return groups;
  return [...parse(head), ...new Array<number>(8 - groups.length).fill(0), ...parse(tail)];
}

const ipv4Of = (high: number, low: number) => [high >> 8, high & 255, low >> 8, low & 255].join('.');

function isPrivateIpv6(address: string): boolean {
  const g = ipv6Groups(address);
  const zeros = (from: number, to: number) => g.slice(from, to).every((group) => group === 0);
  // IPv4-mapped (::ffff:a.b.c.d, however spelled): the socket dials that IPv4 address.
  if (zeros(0, 5) && g[5] === 0xffff) return blockedV4.check(ipv4Of(g[6]!, g[7]!), 'ipv4');
  if ((g[0]! & 0xe000) !== 0x2000) return true; // outside global unicast
  // 6to4 (2002:AABB:CCDD::/48): the IPv4 address inside decides.
  if (g[0] === 0x2002) return blockedV4.check(ipv4Of(g[1]!, g[2]!), 'ipv4');
  return blockedV6.check(address.replace(/%.*$/, ''), 'ipv6');
}

/**
 * True for every address a webhook must not reach: loopback, private, link-local,
 * unspecified, shared, documentation, benchmarking, multicast, reserved, and IPv6 forms
 * that carry or translate to such an IPv4 address (DECISIONS.md, Outbound webhooks and
 * Privilege boundaries). Anything that is not an IP address is refused rather than guessed.
 */
export function isPrivateAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return blockedV4.check(address, 'ipv4');
  if (family === 6) return isPrivateIpv6(address);
  return true;
}

export class UnsafeUrlError extends Error {}

const hostOf = (url: URL) => url.hostname.replace(/^\[(.*)\]$/, '$1');

/** Throws UnsafeUrlError naming the problem unless `text` is an http(s) URL of a public host. */
export async function assertDeliverableUrl(text: string, allowPrivate: boolean): Promise<URL> {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new UnsafeUrlError('url must be an absolute http or https URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new UnsafeUrlError('url must use http or https');
  if (url.username || url.password) throw new UnsafeUrlError('url must not contain credentials');
  if (allowPrivate) return url;
  const host = hostOf(url);
  let addresses: string[];
  if (isIP(host)) addresses = [host];
  else {
    try {
      addresses = (await dnsLookupAsync(host, { all: true })).map((a) => a.address);
    } catch {
      throw new UnsafeUrlError(`url's host ${host} does not resolve`);
    }
  }
  if (addresses.some(isPrivateAddress)) throw new UnsafeUrlError('url resolves to a private, loopback or link-local address');
  return url;
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * A `lookup` for http.request that refuses private addresses (unless allowed). Node calls
 * it for host names only: a literal IP in the URL is checked by `literalHostAllowed`.
 */
export function guardedLookup(allowPrivate: boolean) {
  return (hostname: string, options: LookupAllOptions | object, callback: LookupCallback): void => {
    dnsLookup(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return callback(err, []);
      if (!allowPrivate && addresses.some((a) => isPrivateAddress(a.address))) {
        return callback(Object.assign(new Error(`${hostname} resolves to a private address`), { code: 'EPRIVATE' }), []);
      }
      if ((options as LookupAllOptions).all) return callback(null, addresses);
      callback(null, addresses[0]!.address, addresses[0]!.family);
    });
  };
}

export const literalHostAllowed = (url: URL, allowPrivate: boolean): boolean => {
  const host = hostOf(url);
  return allowPrivate || isIP(host) === 0 || !isPrivateAddress(host);
};
