// The service's Prometheus metrics: one registry per app (tests run several apps in one
// process), fed by Fastify hooks and by the report points of src/lib/observe.ts.
import type { FastifyInstance } from 'fastify';
import type pg from 'pg';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { onBatch, onReleaseSent, onSlotRelease, onValidation, onWebhookAttempt } from '../../lib/observe.js';
import { queueStats } from '../events/outbox.repository.js';
import { clock } from '../../lib/clock.js';

type QueueStats = Awaited<ReturnType<typeof queueStats>>;

const WEBHOOK_ROUTES = new Set(['/marketplace', '/marketplace/license', '/integrations/marketplace']);

/** The marketplace webhook's answer, by status (SPEC.md: 200 key, 401 secret, 404 product). */
function webhookOutcome(status: number): string {
  if (status === 200) return 'issued';
  if (status === 400) return 'bad_request';
  if (status === 401) return 'invalid_secret';
  if (status === 404) return 'unknown_resource';
  if (status === 429) return 'rate_limited';
  if (status === 503) return 'not_configured';
  return status >= 500 ? 'error' : `status_${status}`;
}

/** Creates the registry and wires every source of figures into it; stops listening on close. */
export function createMetrics(app: FastifyInstance, pool: pg.Pool | null): Registry {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry }); // process CPU/memory/handles, GC, event-loop lag

  const requestSeconds = new Histogram({
    name: 'licensing_http_request_duration_seconds',
    help: 'Time from request to response, per route pattern',
    labelNames: ['method', 'route', 'status_code'],
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [registry],
  });
  const validations = new Counter({
    name: 'licensing_validations_total',
    help: 'License validations decided, by outcome (valid/invalid) and reason (VALID, EXPIRED, …, UNKNOWN_LICENSE)',
    labelNames: ['outcome', 'reason'],
    registers: [registry],
  });
  const slotReleases = new Counter({
    name: 'licensing_slot_releases_total',
    help: 'IP and HWID bindings released, by reason: inactive (a validation made room past slotTimeoutMinutes) or self (POST /licenses/release)',
    labelNames: ['reason'],
    registers: [registry],
  });
  const webhooks = new Counter({
    name: 'licensing_webhook_requests_total',
    help: 'Marketplace webhook answers by outcome',
    labelNames: ['outcome'],
    registers: [registry],
  });
  const rateLimited = new Counter({
    name: 'licensing_rate_limited_total',
    help: 'Requests answered 429 (rate limit or login lockout), per route pattern',
    labelNames: ['route'],
    registers: [registry],
  });
  const batchSize = new Histogram({
    name: 'licensing_group_commit_batch_size',
    help: 'Entries committed together in one group-commit batch',
    buckets: [1, 2, 4, 8, 16, 32, 64, 128, 256, 512],
    registers: [registry],
  });
  const batchSeconds = new Histogram({
    name: 'licensing_group_commit_seconds',
    help: 'Time to apply and commit one group-commit batch',
    buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1],
    registers: [registry],
  });
  const webhookAttempts = new Counter({
    name: 'licensing_webhook_deliveries_total',
    help: 'Outbound webhook attempts, by outcome: delivered, retry (another attempt is scheduled) or failed (given up)',
    labelNames: ['outcome'],
    registers: [registry],
  });
  const releaseDownloads = new Counter({
    name: 'licensing_release_downloads_total',
    help: 'Release downloads sent (POST /releases/download), by kind: stamped (a jar stamped for its license) or plain',
    labelNames: ['kind'],
    registers: [registry],
  });
  const releaseBytes = new Counter({
    name: 'licensing_release_bytes_sent_total',
    help: 'Bytes of release files sent to licensed downloads, by kind (stamped or plain); a cut download counts what was sent',
    labelNames: ['kind'],
    registers: [registry],
  });
  // The queue is read once per scrape (both gauges share the query); an unreachable
  // database leaves the last figures.
  let queueRead: Promise<QueueStats | null> | null = null;
  const readQueue = () => {
    if (!queueRead) {
      queueRead = queueStats(app.db).catch(() => null);
      setTimeout(() => (queueRead = null), 100).unref();
    }
    return queueRead;
  };
  const queueGauge = (name: string, help: string, read: (stats: QueueStats) => number) =>
    new Gauge({
      name,
      help,
      registers: [registry],
      async collect() {
        const stats = await readQueue();
        if (stats) this.set(read(stats));
      },
    });
  queueGauge('licensing_webhook_queue_depth', 'Outbound webhook events waiting for delivery (all endpoints)', (s) => s.depth);
  queueGauge('licensing_webhook_oldest_pending_seconds', 'Age of the oldest event waiting for delivery; 0 when none waits', (s) =>
    s.oldestCreatedAt === null ? 0 : Math.max(0, (clock.now() - s.oldestCreatedAt) / 1000),
  );
  if (pool) {
    const poolGauge = (name: string, help: string, read: () => number) =>
      new Gauge({
        name,
        help,
        registers: [registry],
        async collect() {
          await readQueue(); // read after the scrape's own query, which is not a client's
          this.set(read());
        },
      });
    poolGauge('licensing_db_pool_connections', 'PostgreSQL pool: open connections', () => pool.totalCount);
    poolGauge('licensing_db_pool_idle_connections', 'PostgreSQL pool: idle connections', () => pool.idleCount);
    poolGauge('licensing_db_pool_waiting_requests', 'PostgreSQL pool: queries waiting for a connection', () => pool.waitingCount);
  }

  app.addHook('onResponse', (request, reply, done) => {
    const route = request.routeOptions.url ?? '(unmatched)';
    const status = reply.statusCode;
    requestSeconds.observe({ method: request.method, route, status_code: status }, reply.elapsedTime / 1000);
    if (status === 429) rateLimited.inc({ route });
    if (WEBHOOK_ROUTES.has(route)) webhooks.inc({ outcome: webhookOutcome(status) });
    done();
  });
  const stopValidations = onValidation(({ reason, valid }) => validations.inc({ outcome: valid ? 'valid' : 'invalid', reason }));
  const stopSlotReleases = onSlotRelease(({ reason, count }) => slotReleases.inc({ reason }, count));
  const stopWebhookAttempts = onWebhookAttempt(({ outcome }) => webhookAttempts.inc({ outcome }));
  const stopReleases = onReleaseSent(({ stamped, bytes }) => {
    const kind = stamped ? 'stamped' : 'plain';
    releaseDownloads.inc({ kind });
    releaseBytes.inc({ kind }, bytes);
  });
  const stopBatches = onBatch(({ size, seconds }) => {
    batchSize.observe(size);
    batchSeconds.observe(seconds);
  });
  app.addHook('onClose', async () => {
    stopValidations();
    stopSlotReleases();
    stopBatches();
    stopWebhookAttempts();
    stopReleases();
    registry.clear();
  });
  return registry;
}
