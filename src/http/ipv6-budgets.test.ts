// Every per-IP limit counts an IPv6 client by its /64 and an IPv4-mapped address as its IPv4
// (src/lib/ip-address.ts): the validation rate limit and the login failure limit, on both
// databases, in memory and in Redis. Clients are told apart by X-Forwarded-For (TRUST_PROXY).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newLicense } from '../../test/helpers/fixtures.js';
import { deleteRedisKeys, randomRedisPrefix, RATE_LIMIT_STORES, TEST_REDIS_URL } from '../../test/helpers/redis.js';
import { ADMIN, DIALECTS, startTestApp, type TestApp } from '../../test/helpers/test-app.js';
import type { License } from '../modules/licenses/licenses.schemas.js';

const LIMIT = 4;

describe.each(DIALECTS.flatMap((d) => RATE_LIMIT_STORES.map((s) => [d, s] as const)))('per-IP limits by /64 (%s, %s)', (dialect, store) => {
  const prefix = randomRedisPrefix();
  let t: TestApp;
  let license: License;
  beforeAll(async () => {
    const redis: Record<string, string> = store === 'redis' ? { REDIS_URL: TEST_REDIS_URL, REDIS_KEY_PREFIX: prefix } : {};
    t = await startTestApp(dialect, { ...redis, TRUST_PROXY: 'true', VALIDATION_RATE_LIMIT: String(LIMIT) });
    license = await newLicense(t);
  });
  afterAll(async () => {
    await t.close();
    await deleteRedisKeys(prefix);
  });

  const validateFrom = async (ip: string) =>
    (await t.req('POST', '/licenses/validate', {
      body: { licenseId: license.id, productId: license.productId, hwid: 'HW' },
      headers: { 'x-forwarded-for': ip },
    })).status;
  const loginFrom = async (ip: string, password: string) =>
    (await t.req('POST', '/auth/login', { body: { username: ADMIN.username, password }, headers: { 'x-forwarded-for': ip } })).status;

  it('validation: two addresses of one /64 share a budget, another /64 has its own', async () => {
    const statuses = [];
    for (const ip of ['2001:db8:a:1::1', '2001:db8:a:1::2', '2001:db8:a:1:ffff:ffff:ffff:fffe', '2001:DB8:A:1:0:0:0:3']) statuses.push(await validateFrom(ip));
    expect(statuses).toEqual([200, 200, 200, 200]);
    expect(await validateFrom('2001:db8:a:1:1234::9')).toBe(429);
    expect(await validateFrom('2001:db8:a:2::1')).toBe(200);
    expect(await validateFrom('2001:db8:b:1::1')).toBe(200);
  });

  it('validation: an IPv4-mapped address, however spelled, spends its IPv4 budget', async () => {
    const statuses = [];
    for (const ip of ['198.51.100.7', '::ffff:198.51.100.7', '0:0:0:0:0:ffff:198.51.100.7', '::ffff:c633:6407']) statuses.push(await validateFrom(ip));
    expect(statuses).toEqual([200, 200, 200, 200]);
    expect(await validateFrom('198.51.100.7')).toBe(429);
    expect(await validateFrom('198.51.100.8')).toBe(200);
  });

  it('login: failures from addresses of one /64 block the whole /64, not the next one', async () => {
    for (let i = 1; i <= 10; i += 1) expect(await loginFrom(`2001:db8:c:1::${i.toString(16)}`, `wrong-${i}`)).toBe(401);
    expect(await loginFrom('2001:db8:c:1:abcd::1', ADMIN.password)).toBe(429);
    expect(await loginFrom('2001:db8:c:2::1', ADMIN.password)).toBe(200);
  });

  it('login: failures from an IPv4-mapped address count for its IPv4 address', async () => {
    for (let i = 1; i <= 10; i += 1) expect(await loginFrom(i % 2 ? '::ffff:192.0.2.44' : '0:0:0:0:0:ffff:192.0.2.44', `wrong-${i}`)).toBe(401);
    expect(await loginFrom('192.0.2.44', ADMIN.password)).toBe(429);
    expect(await loginFrom('192.0.2.45', ADMIN.password)).toBe(200);
  });
});
