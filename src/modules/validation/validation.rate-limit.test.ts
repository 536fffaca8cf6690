import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newLicense, readLicense, validate } from '../../../test/helpers/fixtures.js';
import { deleteRedisKeys, randomRedisPrefix, RATE_LIMIT_STORES, TEST_REDIS_URL } from '../../../test/helpers/redis.js';
import { createTestDatabase, DIALECTS, startTestApp, type TestApp, type TestDatabase } from '../../../test/helpers/test-app.js';
import type { License } from '../licenses/licenses.schemas.js';

const STORES = RATE_LIMIT_STORES;
const LIMITED = { error: 'Too many validation attempts. Try again shortly.' };

describe.each(DIALECTS.flatMap((d) => STORES.map((s) => [d, s] as const)))('validation rate limit (%s, %s)', (dialect, store) => {
  const prefix = randomRedisPrefix();
  const env: Record<string, string> = store === 'redis' ? { REDIS_URL: TEST_REDIS_URL, REDIS_KEY_PREFIX: prefix } : {};
  let database: TestDatabase;
  let a: TestApp;
  let b: TestApp;
  let license: License;
  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    a = await startTestApp(dialect, env, database);
    b = await startTestApp(dialect, env, database);
    license = await newLicense(a);
  });
  afterAll(async () => {
    await a.close();
    await b.close();
    await database.drop();
    await deleteRedisKeys(prefix);
  });

  const args = () => ({ licenseId: license.id, productId: license.productId, hwid: 'HW' });

  it('allows 30 requests per IP (400s and unknown licenses count too), answers the 31st with 429 and Retry-After', async () => {
    const ip = '127.0.3.1';
    for (let i = 0; i < 30; i += 1) {
      const body = i % 3 === 0 ? { licenseId: license.id } : i % 3 === 1 ? { ...args(), licenseId: 'unknown' } : args();
      const res = await validate(a, body, ip);
      expect(res.status, `request ${i + 1}`).toBe(i % 3 === 0 ? 400 : 200);
    }
    const limited = await validate(a, args(), ip);
    expect(limited.status).toBe(429);
    expect(limited.json).toEqual(LIMITED);
    const retryAfter = Number(limited.headers['retry-after']);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect((await validate(a, { not: 'even valid' }, ip)).status).toBe(429);
    // the limited requests recorded nothing: 10 valid attempts only
    expect((await readLicense(a, license.id)).validationAttempts).toHaveLength(10);
    expect((await validate(a, args(), '127.0.3.2')).status).toBe(200);
  });

  it(`${store === 'redis' ? 'shares' : 'keeps per instance'} the counter of an IP between two instances`, async () => {
    const ip = '127.0.3.3';
    for (let i = 0; i < 30; i += 1) expect((await validate(i % 2 ? a : b, args(), ip)).status).toBe(200);
    const [onA, onB] = [await validate(a, args(), ip), await validate(b, args(), ip)];
    if (store === 'redis') {
      expect([onA.status, onB.status]).toEqual([429, 429]);
    } else {
      expect([onA.status, onB.status]).toEqual([200, 200]); // 16 each so far
    }
  });

  it('limits parallel bursts exactly', async () => {
    const ip = '127.0.3.4';
    const results = await Promise.all(Array.from({ length: 45 }, () => validate(a, args(), ip)));
    expect(results.filter((r) => r.status === 200)).toHaveLength(30);
    expect(results.filter((r) => r.status === 429)).toHaveLength(15);
  });
});

describe('VALIDATION_RATE_LIMIT', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp('sqlite', { VALIDATION_RATE_LIMIT: '3' });
  });
  afterAll(() => t.close());

  it('sets the allowance per minute', async () => {
    const license = await newLicense(t);
    const statuses = [];
    for (let i = 0; i < 4; i += 1) {
      statuses.push((await validate(t, { licenseId: license.id, productId: license.productId, hwid: 'h' }, '127.0.3.5')).status);
    }
    expect(statuses).toEqual([200, 200, 200, 429]);
  });
});
