// The webhook limiter on three routes sharing one counter, exercised on a bare Fastify
// instance (the webhook routes themselves belong to the marketplace module).
import Fastify, { type FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { deleteRedisKeys, randomRedisPrefix, RATE_LIMIT_STORES, TEST_REDIS_URL } from '../../test/helpers/redis.js';
import { testConfig } from '../../test/helpers/test-app.js';
import { registerRateLimitStore, WEBHOOK_LIMITED, webhookRateLimit } from './rate-limit.js';

const PATHS = ['/marketplace', '/marketplace/license', '/integrations/marketplace'];

async function webhookApp(env: Record<string, string>): Promise<FastifyInstance> {
  const app = Fastify();
  app.decorate('config', testConfig('sqlite::memory:', env));
  registerRateLimitStore(app);
  const limited = webhookRateLimit(app);
  for (const path of PATHS) app.post(path, { onRequest: limited }, async (_request, reply) => reply.type('text/plain').send('KEY'));
  await app.ready();
  return app;
}

describe.each(RATE_LIMIT_STORES)('webhook rate limit (%s)', (store) => {
  let app: FastifyInstance | undefined;
  const prefix = randomRedisPrefix();
  afterEach(async () => {
    await app?.close();
    await deleteRedisKeys(prefix);
  });

  it('allows 60 requests per minute per IP across the three paths, then 429 in plain text with Retry-After', async () => {
    app = await webhookApp(store === 'redis' ? { REDIS_URL: TEST_REDIS_URL, REDIS_KEY_PREFIX: prefix } : {});
    const post = (i: number, remoteAddress = '10.1.1.1') => app!.inject({ method: 'POST', url: PATHS[i % 3]!, remoteAddress });
    for (let i = 0; i < 60; i += 1) expect((await post(i)).statusCode, `request ${i + 1}`).toBe(200);
    const limited = await post(60);
    expect(limited.statusCode).toBe(429);
    expect(limited.headers['content-type']).toMatch(/^text\/plain/);
    expect(limited.body).toBe(WEBHOOK_LIMITED);
    const retryAfter = Number(limited.headers['retry-after']);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect((await post(1)).statusCode).toBe(429);
    expect((await post(0, '10.1.1.2')).statusCode).toBe(200);
  });

  it('honours WEBHOOK_RATE_LIMIT', async () => {
    app = await webhookApp({ WEBHOOK_RATE_LIMIT: '2', ...(store === 'redis' ? { REDIS_URL: TEST_REDIS_URL, REDIS_KEY_PREFIX: prefix } : {}) });
    const statuses = [];
    for (let i = 0; i < 3; i += 1) statuses.push((await app.inject({ method: 'POST', url: PATHS[i]!, remoteAddress: '10.1.1.3' })).statusCode);
    expect(statuses).toEqual([200, 200, 429]);
  });
});

describe('rate limit store outage', () => {
  it('lets requests through when Redis cannot be reached', async () => {
    const app = await webhookApp({ REDIS_URL: 'redis://127.0.0.1:1' });
    try {
      expect((await app.inject({ method: 'POST', url: '/marketplace', remoteAddress: '10.1.1.4' })).statusCode).toBe(200);
    } finally {
      await app.close();
    }
  });
});
