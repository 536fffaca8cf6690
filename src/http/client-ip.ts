import { isIP } from 'node:net';
import type { FastifyRequest } from 'fastify';

/**
 * An address as this service records it, or null when `value` is not an IP address:
 * IPv4 as is, IPv4-mapped IPv6 (::ffff:1.2.3.4, however spelled) as plain IPv4, other IPv6 in its
 * canonical form (so `0:0::1` and `::1` are one address), and an IPv6 zone id
 * (`fe80::1%eth0`) stripped: it names an interface of the sender's host, not a client.
 */
export function normalizeIp(value: string): string | null {
  const address = value.trim().replace(/%.*$/, '');
  const version = isIP(address);
  if (version === 4) return address;
  if (version !== 6) return null;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return mapped[1]!;
  const canonical = new URL(`http://[${address}]`).hostname.slice(1, -1);
  // Another spelling of a mapped address (0:0:0:0:0:ffff:1.2.3.4, ::ffff:102:304) comes out as ::ffff:hex:hex.
  const hex = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(canonical);
  if (!hex) return canonical;
  const [high, low] = [parseInt(hex[1]!, 16), parseInt(hex[2]!, 16)];
  return `${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`;
}

/**
 * The caller's address: the socket peer, or X-Forwarded-For when trusted proxies are
 * configured (Fastify's trustProxy). A forwarded value that is not an IP address
 * (`unknown`, `garbage`) is never taken as the client: the nearest hop that is an
 * address (the proxy that sent it) stands in for it.
 */
export function clientIp(request: FastifyRequest): string {
  const direct = normalizeIp(request.ip);
  if (direct !== null) return direct;
  // request.ips: the socket peer first, then X-Forwarded-For from nearest to farthest.
  const hops = request.ips ?? [];
  const chosen = hops.indexOf(request.ip);
  for (let i = (chosen < 0 ? hops.length : chosen) - 1; i >= 0; i -= 1) {
    const address = normalizeIp(hops[i]!);
    if (address !== null) return address;
  }
  return normalizeIp(request.socket.remoteAddress ?? '') ?? '0.0.0.0';
}
