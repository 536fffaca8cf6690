import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newLicense, createProduct, putBody, readLicense, validate } from '../../../test/helpers/fixtures.js';
import { useTestClock } from '../../../test/helpers/clock.js';
import { DIALECTS, startTestApp, type TestApp } from '../../../test/helpers/test-app.js';
import { until } from '../../../test/helpers/until.js';

describe.each(DIALECTS)('license validation (%s)', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(dialect, { VALIDATION_RATE_LIMIT: '100000' });
  });
  afterAll(() => t.close());

  const attemptCount = async () =>
    Number((await t.app.db.selectFrom('validation_attempts').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);

  it('validates a license, binds the IP and HWID, records the attempt and leaves the version alone', async () => {
    const license = await newLicense(t);
    const res = await validate(t, { licenseId: license.id, productId: license.productId, hwid: 'HW-A' }, '127.0.0.2');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.json).toEqual({ valid: true });
    const after = await readLicense(t, license.id);
    expect(after.usedIps).toEqual(['127.0.0.2']);
    expect(after.usedHwids).toEqual(['HW-A']);
    expect(after.version).toBe(1);
    expect(after.validationAttempts).toHaveLength(1);
    const [attempt] = after.validationAttempts;
    expect(attempt).toMatchObject({ hwid: 'HW-A', ip: '127.0.0.2', successful: true, reason: 'VALID' });
    expect(Math.abs(attempt!.timestampEpochMillis - Date.now())).toBeLessThan(5000);
    expect((await t.admin('PUT', `/licenses/${license.id}`, { body: putBody(after) })).status).toBe(200);
  });

  it('fails a product mismatch, records PRODUCT_MISMATCH and binds nothing', async () => {
    const license = await newLicense(t);
    const other = await createProduct(t);
    expect((await validate(t, { licenseId: license.id, productId: other.id, hwid: 'HW' })).json).toEqual({ valid: false });
    const after = await readLicense(t, license.id);
    expect(after.validationAttempts.map((a) => [a.successful, a.reason])).toEqual([[false, 'PRODUCT_MISMATCH']]);
    expect([after.usedIps, after.usedHwids]).toEqual([[], []]);
  });

  it('treats an expiry at or before now as expired and a future or null one as valid', async () => {
    const time = useTestClock();
    time.freeze(); // "now" is one moment: an expiry exactly at it is tested as such
    const product = await createProduct(t);
    const at = async (expiresAtEpochMillis: number | null) => {
      const license = await newLicense(t, { productId: product.id, expiresAtEpochMillis });
      return (await validate(t, { licenseId: license.id, productId: product.id, hwid: 'HW' })).json.valid;
    };
    expect(await at(time.now() - 60_000)).toBe(false);
    expect(await at(time.now())).toBe(false);
    expect(await at(time.now() + 1)).toBe(true);
    expect(await at(time.now() + 86_400_000)).toBe(true);
    expect(await at(null)).toBe(true);
    const soon = await newLicense(t, { productId: product.id, expiresAtEpochMillis: time.now() + 400 });
    const args = { licenseId: soon.id, productId: product.id, hwid: 'HW' };
    expect((await validate(t, args)).json.valid).toBe(true);
    time.advance(400); // the clock reaches the expiry
    expect((await validate(t, args)).json.valid).toBe(false);
    expect((await readLicense(t, soon.id)).validationAttempts.map((a) => a.reason)).toEqual(['VALID', 'EXPIRED']);
  });

  it('maxIps=1 binds the first IP, accepts it again and rejects a second IP with IP_LIMIT_REACHED', async () => {
    const time = useTestClock();
    const license = await newLicense(t, { maxIps: 1 });
    const args = { licenseId: license.id, productId: license.productId, hwid: 'HW-1' };
    const seq: [string, boolean][] = [['127.0.0.3', true], ['127.0.0.3', true], ['127.0.0.4', false], ['127.0.0.3', true]];
    for (const [ip, expected] of seq) {
      expect((await validate(t, args, ip)).json.valid).toBe(expected);
      time.advance(2); // each attempt at a time of its own
    }
    const after = await readLicense(t, license.id);
    expect(after.usedIps).toEqual(['127.0.0.3']);
    expect(after.validationAttempts.map((a) => [a.ip, a.successful, a.reason])).toEqual([
      ['127.0.0.3', true, 'VALID'],
      ['127.0.0.3', true, 'VALID'],
      ['127.0.0.4', false, 'IP_LIMIT_REACHED'],
      ['127.0.0.3', true, 'VALID'],
    ]);
  });

  it('maxHwids=1 rejects a second HWID with HWID_LIMIT_REACHED and binds no new IP for that request', async () => {
    const license = await newLicense(t, { maxHwids: 1 });
    const args = (hwid: string) => ({ licenseId: license.id, productId: license.productId, hwid });
    expect((await validate(t, args('HW-1'), '127.0.0.5')).json.valid).toBe(true);
    expect((await validate(t, args('HW-2'), '127.0.0.6')).json.valid).toBe(false);
    expect((await validate(t, args('HW-1'), '127.0.0.5')).json.valid).toBe(true);
    const after = await readLicense(t, license.id);
    expect(after.usedHwids).toEqual(['HW-1']);
    expect(after.usedIps).toEqual(['127.0.0.5']);
    expect(after.validationAttempts.map((a) => a.reason)).toEqual(['VALID', 'HWID_LIMIT_REACHED', 'VALID']);
  });

  it('runs the checks in order: product, expiry, IP slot, HWID slot', async () => {
    const product = await createProduct(t);
    const other = await createProduct(t);
    const reasonOf = async (license: { id: string }, productId: string) => {
      expect((await validate(t, { licenseId: license.id, productId, hwid: 'HW-new' }, '127.0.0.7')).json.valid).toBe(false);
      return (await readLicense(t, license.id)).validationAttempts.at(-1)!.reason;
    };
    const everythingWrong = await newLicense(t, { productId: product.id, expiresAtEpochMillis: Date.now() - 1, maxIps: 0, maxHwids: 0 });
    expect(await reasonOf(everythingWrong, other.id)).toBe('PRODUCT_MISMATCH');
    expect(await reasonOf(everythingWrong, product.id)).toBe('EXPIRED');
    const fullSlots = await newLicense(t, { productId: product.id, maxIps: 0, maxHwids: 0 });
    expect(await reasonOf(fullSlots, product.id)).toBe('IP_LIMIT_REACHED');
    const fullHwids = await newLicense(t, { productId: product.id, maxIps: 5, maxHwids: 0 });
    expect(await reasonOf(fullHwids, product.id)).toBe('HWID_LIMIT_REACHED');
    expect((await readLicense(t, fullHwids.id)).usedIps).toEqual([]);
  });

  it('treats null limits as unlimited and still records every binding', async () => {
    const license = await newLicense(t, { maxIps: null, maxHwids: null });
    for (let i = 0; i < 6; i += 1) {
      const res = await validate(t, { licenseId: license.id, productId: license.productId, hwid: `HW-${i}` }, `127.0.1.${i + 1}`);
      expect(res.json.valid).toBe(true);
    }
    const after = await readLicense(t, license.id);
    expect(after.usedIps).toEqual(['127.0.1.1', '127.0.1.2', '127.0.1.3', '127.0.1.4', '127.0.1.5', '127.0.1.6']);
    expect(after.usedHwids).toHaveLength(6);
  });

  it('counts bindings set through PUT: a bound IP is admitted even at the limit, a new one is not', async () => {
    const license = await newLicense(t, { maxIps: 1, maxHwids: 1 });
    await t.admin('PUT', `/licenses/${license.id}`, { body: putBody(license, { usedIps: ['127.0.0.8', '10.0.0.1'], usedHwids: ['HW-P'] }) });
    const args = { licenseId: license.id, productId: license.productId, hwid: 'HW-P' };
    expect((await validate(t, args, '127.0.0.8')).json.valid).toBe(true);
    expect((await validate(t, args, '127.0.0.9')).json.valid).toBe(false);
  });

  it('answers an unknown license with 200 {valid: false} and records nothing', async () => {
    const product = await createProduct(t);
    const before = await attemptCount();
    for (const licenseId of ['ZZZZZ-ZZZZZ-ZZZZZ-ZZZZZ-ZZZZZ', "' OR 1=1 --", '']) {
      const res = await validate(t, { licenseId, productId: product.id, hwid: 'h' });
      expect(res.status).toBe(200);
      expect(res.json).toEqual({ valid: false });
    }
    expect(await attemptCount()).toBe(before);
  });

  it('rejects missing or non-string fields and malformed bodies with 400, recording nothing', async () => {
    const license = await newLicense(t);
    const good = { licenseId: license.id, productId: license.productId, hwid: 'h' };
    const bad: [unknown, string][] = [
      [{ productId: good.productId, hwid: 'h' }, 'licenseId'],
      [{ licenseId: good.licenseId, hwid: 'h' }, 'productId'],
      [{ licenseId: good.licenseId, productId: good.productId }, 'hwid'],
      [{ ...good, hwid: 42 }, 'hwid'],
      [{ ...good, licenseId: null }, 'licenseId'],
      [{ ...good, productId: ['x'] }, 'productId'],
      [{ ...good, hwid: 'a\u0000b' }, 'hwid'],
    ];
    for (const [body, field] of bad) {
      const res = await validate(t, body as Record<string, unknown>);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.json.error).toContain(field);
    }
    const malformed = await t.req('POST', '/licenses/validate', { rawBody: '{"licenseId": ', headers: { 'content-type': 'application/json' } });
    expect(malformed.status).toBe(400);
    expect(malformed.json).toHaveProperty('error');
    expect((await t.req('POST', '/licenses/validate', { body: [good] })).status).toBe(400);
    expect((await readLicense(t, license.id)).validationAttempts).toEqual([]);
  });

  it('uses the socket peer as the client IP and ignores X-Forwarded-For without TRUST_PROXY', async () => {
    const license = await newLicense(t);
    await t.req('POST', '/licenses/validate', {
      body: { licenseId: license.id, productId: license.productId, hwid: 'h' },
      headers: { 'x-forwarded-for': '203.0.113.9' },
      localAddress: '127.0.0.10',
    });
    expect((await readLicense(t, license.id)).usedIps).toEqual(['127.0.0.10']);
  });
});

/** Validates `count` times (HWIDs HW-1…), each attempt a millisecond after the one before. */
async function validateInTurn(t: TestApp, license: { id: string; productId: string }, count: number): Promise<void> {
  const time = useTestClock();
  for (let i = 1; i <= count; i += 1) {
    await validate(t, { licenseId: license.id, productId: license.productId, hwid: `HW-${i}` });
    time.advance(1);
  }
}

/** The attempts stored for the license once at most `most` (PostgreSQL prunes beside the answers, not before them). */
async function untilPruned(t: TestApp, licenseId: string, most: number): Promise<number> {
  const stored = async () =>
    Number((await t.app.db.selectFrom('validation_attempts').select((eb) => eb.fn.countAll().as('n')).where('license_id', '=', licenseId).executeTakeFirstOrThrow()).n);
  return until(`the history pruned to at most ${most}`, stored, (n) => n <= most);
}

describe.each(DIALECTS)('validation history and proxies (%s)', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(dialect, { VALIDATION_HISTORY_MAX: '3', TRUST_PROXY: 'true', VALIDATION_RATE_LIMIT: '100000' });
  });
  afterAll(() => t.close());

  it('keeps only the most recent VALIDATION_HISTORY_MAX attempts, oldest first', async () => {
    const license = await newLicense(t);
    await validateInTurn(t, license, 5);
    const after = await readLicense(t, license.id);
    expect(after.validationAttempts.map((a) => a.hwid)).toEqual(['HW-3', 'HW-4', 'HW-5']);
    expect(await untilPruned(t, license.id, 3)).toBe(3);
  });

  it('keeps the most recent attempts given to PUT as well', async () => {
    const license = await newLicense(t);
    const attempts = [5, 1, 4, 2, 3].map((n) => ({ hwid: `h${n}`, ip: '1.1.1.1', timestampEpochMillis: n * 1000, successful: true }));
    const res = await t.admin('PUT', `/licenses/${license.id}`, { body: putBody(license, { validationAttempts: attempts }) });
    expect(res.json.validationAttempts.map((a: { hwid: string }) => a.hwid)).toEqual(['h3', 'h4', 'h5']);
  });

  it('honours X-Forwarded-For with TRUST_PROXY', async () => {
    const license = await newLicense(t);
    await t.req('POST', '/licenses/validate', {
      body: { licenseId: license.id, productId: license.productId, hwid: 'h' },
      headers: { 'x-forwarded-for': '203.0.113.9' },
    });
    expect((await readLicense(t, license.id)).usedIps).toEqual(['203.0.113.9']);
  });
});

describe.each(DIALECTS)('validation history pruned in chunks (%s)', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(dialect, { VALIDATION_HISTORY_MAX: '20', VALIDATION_RATE_LIMIT: '100000' });
  });
  afterAll(() => t.close());

  it('shows exactly the 20 most recent attempts while storing at most a tenth more', async () => {
    const license = await newLicense(t);
    await validateInTurn(t, license, 27);
    const after = await readLicense(t, license.id);
    expect(after.validationAttempts.map((a) => a.hwid)).toEqual(Array.from({ length: 20 }, (_, i) => `HW-${i + 8}`));
    const listed = ((await t.admin('GET', `/licenses?customerId=${license.customerId}`)).json as { validationAttempts: unknown[] }[])[0]!;
    expect(listed.validationAttempts).toEqual(after.validationAttempts);
    expect(await untilPruned(t, license.id, 22)).toBeGreaterThanOrEqual(20);
  });
});
