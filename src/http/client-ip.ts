import type { FastifyRequest } from 'fastify';

/**
 * The caller's address: the socket peer, or X-Forwarded-For when trusted proxies are
 * configured (Fastify's trustProxy). IPv4-mapped IPv6 (::ffff:1.2.3.4) is shown plain.
 */
export function clientIp(request: FastifyRequest): string {
  const ip = request.ip;
  return ip.startsWith('::ffff:') && ip.includes('.') ? ip.slice('::ffff:'.length) : ip;
}
