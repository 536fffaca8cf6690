// The SSRF guard: webhook targets must be public. Checked when an endpoint is saved and
// again at every delivery, inside the connection's own DNS lookup, so that a name that
// resolves elsewhere later (DNS rebinding) is caught at the address actually dialled.
import { BlockList, isIP } from 'node:net';
import { lookup as dnsLookup, type LookupAddress, type LookupAllOptions } from 'node:dns';
import { lookup as dnsLookupAsync } from 'node:dns/promises';

const blocked = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8], // "this network", unspecified
  ['10.0.0.0', 8],
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8],
  ['169.254.0.0', 16], // link-local, cloud metadata
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15], // benchmarking
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, broadcast
] as const) blocked.addSubnet(net, prefix, 'ipv4');
for (const [net, prefix] of [
  ['::', 96], // unspecified, loopback and the deprecated IPv4-compatible ::a.b.c.d
  ['2002::', 16], // 6to4: the IPv4 address inside decides (below)
  ['2001::', 32], // Teredo: tunnels to an IPv4 address
  ['fc00::', 7], // unique local
  ['fe80::', 10], // link-local
  ['ff00::', 8], // multicast
  ['64:ff9b::', 96], // NAT64 of any IPv4, private ones included
] as const) blocked.addSubnet(net, prefix, 'ipv6');

/** The IPv4 address a 6to4 address (2002:AABB:CCDD::/48) carries. */
const sixToFourTarget = (address: string): string | null => {
  const match = /^2002:([0-9a-f]{1,4}):([0-9a-f]{1,4}):/i.exec(address);
  if (!match) return null;
  const [high, low] = [parseInt(match[1]!, 16), parseInt(match[2]!, 16)];
  return [high >> 8, high & 255, low >> 8, low & 255].join('.');
};

/** True for loopback, private, link-local, unspecified and other non-public addresses. */
export function isPrivateAddress(address: string): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return blocked.check(mapped[1]!, 'ipv4');
  const family = isIP(address);
  if (family === 0) return true; // not an address: refuse rather than guess
  if (family === 6) {
    const embedded = sixToFourTarget(address);
    if (embedded !== null) return blocked.check(embedded, 'ipv4');
  }
  return blocked.check(address, family === 4 ? 'ipv4' : 'ipv6');
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
