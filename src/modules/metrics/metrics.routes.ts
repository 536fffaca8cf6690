// GET /metrics (Prometheus text format), never public by default:
// - METRICS_TOKEN set: served on the main port to callers sending `Authorization: Bearer <token>`;
// - METRICS_PORT set: served without credentials on a separate listener bound to 127.0.0.1;
// - neither: not collected at all, and /metrics is 404 like any unknown path.
import { createServer, type Server } from 'node:http';
import { Type, type TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import type pg from 'pg';
import type { Registry } from 'prom-client';
import { ErrorSchema } from '../../http/schemas.js';
import { safeEqual } from '../../lib/secrets.js';
import { createMetrics } from './metrics.registry.js';

/** The metrics-only listener on 127.0.0.1:METRICS_PORT. */
function startMetricsListener(registry: Registry, port: number): Promise<Server> {
  const server = createServer((request, response) => {
    if (request.method !== 'GET' || request.url?.split('?')[0] !== '/metrics') {
      response.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"Not found"}');
      return;
    }
    registry.metrics().then(
      (text) => response.writeHead(200, { 'content-type': registry.contentType }).end(text),
      () => response.writeHead(500, { 'content-type': 'application/json' }).end('{"error":"Internal server error"}'),
    );
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve(server));
  });
}

/**
 * Called on the root instance, not registered as a plugin: its timing hook must see every
 * route. `pool` is the PostgreSQL pool (null on SQLite), whose usage is reported.
 */
export async function registerMetrics(root: FastifyInstance, pool: pg.Pool | null): Promise<void> {
  const app = root.withTypeProvider<TypeBoxTypeProvider>();
  const { metricsToken, metricsPort } = app.config;
  if (metricsToken === null && metricsPort === null) return;
  const registry = createMetrics(app, pool);

  if (metricsPort !== null) {
    let server: Server | null = null;
    // Bound when the service listens (tests that build the app without listening open no port).
    app.addHook('onListen', async () => {
      server = await startMetricsListener(registry, metricsPort);
    });
    app.addHook('onClose', (_app, done) => (server ? server.close(() => done()) : done()));
  }

  if (metricsToken === null) return;
  const expected = `Bearer ${metricsToken}`;
  app.get(
    '/metrics',
    {
      logLevel: 'warn',
      schema: {
        tags: ['Health'],
        summary: 'Prometheus metrics (METRICS_TOKEN)',
        description:
          'Prometheus text exposition format. Present only when METRICS_TOKEN is configured; the caller sends ' +
          '`Authorization: Bearer <METRICS_TOKEN>` (compared in constant time). With METRICS_PORT the same text is ' +
          'served on 127.0.0.1:METRICS_PORT/metrics without credentials. Metric names: docs/deploy.md.',
        security: [{ bearerAuth: [] }],
        response: {
          200: Type.String({ description: 'text/plain; version=0.0.4' }),
          401: { ...ErrorSchema, description: 'Missing or wrong metrics token' },
        },
      },
    },
    async (request, reply) => {
      if (!safeEqual(request.headers.authorization ?? '', expected)) {
        return reply.code(401).header('www-authenticate', 'Bearer realm="metrics"').send({ error: 'Invalid or missing metrics token' });
      }
      return reply.type(registry.contentType).send(await registry.metrics());
    },
  );
}
