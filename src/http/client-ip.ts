import { canonicalIp } from '../lib/ip-address.js';
import type { FastifyRequest } from 'fastify';

/**
 * An address as this service records it (lib/ip-address.ts's canonical form), or null when
 * `value` is not an IP address; an IPv6 zone id (`fe80::1%eth0`) is stripped: it names an
 * interface of the sender's host, not a client.
 */
export const normalizeIp = (value: string): string | null => canonicalIp(value.trim().replace(/%.*$/, ''));

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
