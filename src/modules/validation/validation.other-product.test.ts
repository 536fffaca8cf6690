// A validation naming another product than the license's is answered and signed with
// {licenseId, productId, valid: false} facts only (DECISIONS.md "Safe by default"): none of
// the license's expiry, grace, features or slot timeout, also when a blocklist rule refuses
// it first and after the license's facts were remembered (PostgreSQL's bound path).
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProduct, newLicense, validate } from '../../../test/helpers/fixtures.js';
import { verifyJws, type Jwk } from '../../../test/helpers/jws.js';
import { DIALECTS, startTestApp, type TestApp } from '../../../test/helpers/test-app.js';

const DAY_MS = 86_400_000;
/** What a receipt for an unknown license carries beyond the request's own fields. */
const NO_FACTS = { valid: false, expiresAtEpochMillis: null, graceEndsAtEpochMillis: null, features: {}, slotTimeoutMinutes: null };
const RECEIPT_KEYS = ['expiresAtEpochMillis', 'features', 'graceEndsAtEpochMillis', 'hwid', 'ip', 'licenseId', 'nonce', 'productId', 'slotTimeoutMinutes', 'timestampEpochMillis', 'valid'];

describe.each(DIALECTS)('validation naming another product (%s)', (dialect) => {
  let t: TestApp;
  let jwks: { keys: Jwk[] };
  beforeAll(async () => {
    t = await startTestApp(dialect, { VALIDATION_RATE_LIMIT: '100000' });
    jwks = (await t.req('GET', '/.well-known/jwks.json')).json;
  });
  afterAll(() => t.close());

  /** A license with every fact a receipt can carry: expiry, features of its own and its product's, a slot timeout. */
  async function licenseWithFacts(productOver: Record<string, unknown> = {}, licenseOver: Record<string, unknown> = {}) {
    const product = await createProduct(t, { features: { pro: true, seats: 5 }, ...productOver });
    const license = await newLicense(t, { productId: product.id, features: { seats: 9 }, slotTimeoutMinutes: 30, expiresAtEpochMillis: Date.now() + 10 * DAY_MS, ...licenseOver });
    return { license, other: await createProduct(t) };
  }

  const signed = async (body: Record<string, unknown>) => {
    const res = await validate(t, { hwid: 'HW-1', ...body, nonce: randomBytes(16).toString('hex') }, '127.0.0.41');
    expect(res.status).toBe(200);
    return { body: res.json, payload: verifyJws(res.headers['validation-receipt'] as string, jwks).payload };
  };

  it('answers and signs no facts of the license; its own product still gets them', async () => {
    const { license, other } = await licenseWithFacts();
    const own = await signed({ licenseId: license.id, productId: license.productId });
    expect(own.payload).toMatchObject({ valid: true, expiresAtEpochMillis: license.expiresAtEpochMillis, features: { pro: true, seats: 9 }, slotTimeoutMinutes: 30 });

    const wrong = await signed({ licenseId: license.id, productId: other.id });
    expect(wrong.body).toEqual({ valid: false });
    expect(Object.keys(wrong.payload).sort()).toEqual(RECEIPT_KEYS);
    expect(wrong.payload).toMatchObject({ ...NO_FACTS, licenseId: license.id, productId: other.id });
  });

  it('adds only the reason where the license reveals reasons', async () => {
    const { license, other } = await licenseWithFacts({ revealReasons: true });
    const wrong = await signed({ licenseId: license.id, productId: other.id });
    expect(wrong.body).toEqual({ valid: false, reason: 'PRODUCT_MISMATCH' });
    expect(Object.keys(wrong.payload).sort()).toEqual([...RECEIPT_KEYS, 'reason'].sort());
    expect(wrong.payload).toMatchObject({ ...NO_FACTS, reason: 'PRODUCT_MISMATCH' });
  });

  it('signs no grace end of a license in grace', async () => {
    const { license, other } = await licenseWithFacts({}, { graceDays: 5 });
    await signed({ licenseId: license.id, productId: license.productId }); // binds HW-1 and the IP
    expect((await t.admin('PATCH', `/licenses/${license.id}`, { body: { expiresAtEpochMillis: Date.now() - DAY_MS } })).status).toBe(200);
    const own = await signed({ licenseId: license.id, productId: license.productId });
    expect(own.payload).toMatchObject({ valid: true, graceEndsAtEpochMillis: expect.any(Number) });
    expect((await signed({ licenseId: license.id, productId: other.id })).payload).toMatchObject(NO_FACTS);
  });

  it('signs no facts after the same machine validated for the right product (remembered facts)', async () => {
    const { license, other } = await licenseWithFacts();
    for (let i = 0; i < 3; i += 1) expect((await signed({ licenseId: license.id, productId: license.productId })).payload.valid).toBe(true);
    expect((await signed({ licenseId: license.id, productId: other.id })).payload).toMatchObject(NO_FACTS);
  });

  it('signs no facts when a blocklist rule refuses the request first', async () => {
    const { license, other } = await licenseWithFacts({ revealReasons: true });
    const hwid = `HW-BLOCKED-${randomBytes(4).toString('hex')}`;
    expect((await t.admin('POST', '/blocklist', { body: { type: 'hwid', value: hwid } })).status).toBe(201);
    const wrong = await signed({ licenseId: license.id, productId: other.id, hwid });
    expect(wrong.body).toEqual({ valid: false, reason: 'BLOCKED' });
    expect(wrong.payload).toMatchObject({ ...NO_FACTS, reason: 'BLOCKED' });
    // the license's own product, blocked too, is answered as before: the license's facts, refused
    expect((await signed({ licenseId: license.id, productId: license.productId, hwid })).payload).toMatchObject({ valid: false, reason: 'BLOCKED', slotTimeoutMinutes: 30 });
  });
});
