// Redis goes away while the service runs (a TCP proxy of the test's own in front of the
// real Redis is cut, then restored): rate limits and the login limiter fall back at once
// to this instance's memory counters, so limiting keeps working; one warning when Redis
// goes, one line when it returns, no error per request; shared counting then resumes.
import { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app.js';
import { RedisRateLimitStore } from '../lib/rate-limit-store.js';
import { request } from '../../test/helpers/http.js';
import { newLicense } from '../../test/helpers/fixtures.js';
import { countRedisKeys, deleteRedisKeys, randomRedisPrefix, RATE_LIMIT_STORES, TEST_REDIS_URL } from '../../test/helpers/redis.js';
import { startTcpProxy, type TcpProxy } from '../../test/helpers/tcp-proxy.js';
import { ADMIN, createTestDatabase, DIALECTS, testConfig, type TestApp, type TestDatabase } from '../../test/helpers/test-app.js';
import { until } from '../../test/helpers/until.js';


describe.skipIf(!RATE_LIMIT_STORES.includes('redis')).each(DIALECTS)('Redis outage (%s)', (dialect) => {
  const prefix = randomRedisPrefix();
  const logs: { level: number; msg: string; err?: unknown }[] = [];
  let proxy: TcpProxy;
  let database: TestDatabase;
  let app: FastifyInstance;
  let t: TestApp;

  beforeAll(async () => {
    const target = new URL(TEST_REDIS_URL);
    proxy = await startTcpProxy(target.hostname, Number(target.port || 6379));
    database = await createTestDatabase(dialect);
    const config = testConfig(database.url, {
      REDIS_URL: `redis://127.0.0.1:${proxy.port}`,
      REDIS_KEY_PREFIX: prefix,
      VALIDATION_RATE_LIMIT: '5',
    });
    const stream = new Writable({
      write(chunk, _encoding, done) {
        logs.push(JSON.parse(String(chunk)));
        done();
      },
    });
    app = await buildApp(config, { logger: { level: 'info', stream } });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const baseUrl = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
    const req: TestApp['req'] = (method, path, opts) => request(baseUrl, method, path, opts);
    const adminToken = (await req('POST', '/auth/login', { body: ADMIN })).json.token as string;
    t = {
      app,
      baseUrl,
      config,
      database,
      adminToken,
      req,
      admin: (method, path, opts = {}) => req(method, path, { ...opts, token: adminToken }),
      close: async () => {},
    };
  });
  afterAll(async () => {
    await app?.close();
    await proxy?.close();
    await database?.drop();
    await deleteRedisKeys(prefix);
  });

  const store = () => app.rateLimitStore as RedisRateLimitStore;
  const redisLines = () => logs.filter((l) => /Redis/.test(l.msg));
  const validateFrom = (ip: string, license: { id: string; productId: string }) =>
    t.req('POST', '/licenses/validate', { body: { licenseId: license.id, productId: license.productId, hwid: 'HW' }, localAddress: ip });
  const sixValidations = async (ip: string, license: { id: string; productId: string }) => {
    const statuses: number[] = [];
    for (let i = 0; i < 6; i += 1) statuses.push((await validateFrom(ip, license)).status);
    return statuses;
  };

  it('limits per instance in memory while Redis is gone, says so once, and shares limits again once it is back', async () => {
    const license = await newLicense(t);
    expect(store().shared).toBe(true);
    expect(await sixValidations('127.0.0.31', license)).toEqual([200, 200, 200, 200, 200, 429]);
    const keysBefore = await countRedisKeys(prefix);
    expect(keysBefore).toBeGreaterThan(0);

    await proxy.cut();
    await until('the store to fall back to memory', () => !store().shared);
    // Limits still hold, counted in this instance's memory; nothing reaches Redis.
    expect(await sixValidations('127.0.0.32', license)).toEqual([200, 200, 200, 200, 200, 429]);
    const wrongLogins: number[] = [];
    for (let i = 0; i < 11; i += 1) {
      wrongLogins.push((await t.req('POST', '/auth/login', { body: { username: ADMIN.username, password: `wrong-${i}` }, localAddress: '127.0.0.33' })).status);
    }
    expect(wrongLogins).toEqual([...Array<number>(10).fill(401), 429]);
    expect(redisLines().map((l) => [l.level, l.msg])).toEqual([
      [40, 'Redis unreachable: rate limits fall back to per-instance memory counters until it returns'],
    ]);
    expect(logs.filter((l) => l.level >= 50)).toEqual([]);

    await proxy.restore();
    await until('the store to share counts in Redis again', () => store().shared);
    expect(redisLines().map((l) => l.msg)).toHaveLength(2);
    expect(redisLines()[1]).toMatchObject({ level: 30, msg: 'Redis reachable again: rate limits are shared again' });
    expect(await sixValidations('127.0.0.34', license)).toEqual([200, 200, 200, 200, 200, 429]);
    expect(await countRedisKeys(prefix)).toBeGreaterThan(keysBefore); // counted in Redis again
  });

  it('falls back to memory when Redis stops answering on an open connection (a command times out), and recovers', async () => {
    const license = await newLicense(t);
    expect(store().shared).toBe(true);
    const linesBefore = redisLines().length;
    proxy.pause();
    try {
      // The first request waits for the command timeout at most, then counts in memory.
      expect(await sixValidations('127.0.0.35', license)).toEqual([200, 200, 200, 200, 200, 429]);
      expect(store().shared).toBe(false);
      expect(redisLines().slice(linesBefore).map((l) => l.level)).toEqual([40]);
    } finally {
      proxy.resume();
    }
    await until('the store to share counts in Redis again', () => store().shared);
    expect(redisLines().slice(linesBefore).map((l) => l.level)).toEqual([40, 30]);
    expect(logs.filter((l) => l.level >= 50)).toEqual([]);
  });
});
