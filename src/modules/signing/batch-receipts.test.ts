// Batch-signed receipts (DECISIONS.md "Batch-signed receipts"): the form, the trees answers
// committed together form, and what never changes for a client that does not ask for it.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newLicense, readLicense, validate } from '../../../test/helpers/fixtures.js';
import { decodePayload, verifyBatchReceipt, verifyJws } from '../../../test/helpers/jws.js';
import { DIALECTS, startTestApp, type TestApp } from '../../../test/helpers/test-app.js';
import { startTwoInstances } from '../../../test/helpers/two-instances.js';

const nonce = () => randomBytes(24).toString('base64url');
const jwksOf = async (t: TestApp) => (await t.req('GET', '/.well-known/jwks.json')).json;
const receiptOf = (res: { headers: Record<string, unknown> }) => res.headers['validation-receipt'] as string;
const ENV = { VALIDATION_RATE_LIMIT: '1000000' };

describe.each(DIALECTS)('batch-signed receipts (%s)', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(dialect, ENV);
  });
  afterAll(() => t.close());

  it('answers "receiptFormat": "batch" with hdr..sig~claims~idx~path over today\'s payload plus a 16-byte salt', async () => {
    const license = await newLicense(t);
    const body = { licenseId: license.id, productId: license.productId, hwid: 'HW-B', nonce: nonce() };
    const plain = await validate(t, body, '127.0.0.9');
    const batch = await validate(t, { ...body, nonce: nonce(), receiptFormat: 'batch' }, '127.0.0.9');
    expect(batch.json).toEqual({ valid: true });
    const jwks = await jwksOf(t);
    const { header, payload, idx } = verifyBatchReceipt(receiptOf(batch), jwks);
    expect(header).toEqual({ alg: 'EdDSA', kid: jwks.keys[0].kid, typ: 'validation-receipt+mt' });
    expect(idx).toBe(0); // alone in its batch
    const today = verifyJws(receiptOf(plain), jwks).payload;
    expect(Object.keys(payload)).toEqual([...Object.keys(today), 'salt']);
    expect(Buffer.from(payload.salt as string, 'base64url')).toHaveLength(16);
    expect({ ...payload, salt: undefined, nonce: undefined, timestampEpochMillis: 0 }).toEqual({ ...today, salt: undefined, nonce: undefined, timestampEpochMillis: 0 });
    const attempts = (await readLicense(t, license.id)).validationAttempts;
    expect(attempts.at(-1)!.timestampEpochMillis).toBe(payload.timestampEpochMillis);
    // Without receiptFormat: today's compact JWS, its payload without a salt.
    expect(receiptOf(plain)).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(decodePayload(receiptOf(plain))).not.toHaveProperty('salt');
  });

  it('puts answers committed together in one tree: one signature, distinct leaves and salts, every one verifying', async () => {
    const license = await newLicense(t);
    const count = 120;
    // Bound first: PostgreSQL then records them in batched inserts (binding takes a transaction each).
    await injectValidation(t, { licenseId: license.id, productId: license.productId, hwid: 'HW', nonce: nonce() }, '127.0.3.1');
    // Injected in one tick, the requests reach the engine together: few group commits (SQLite: one batch).
    const receipts = await Promise.all(
      Array.from({ length: count }, () =>
        injectValidation(t, { licenseId: license.id, productId: license.productId, hwid: 'HW', nonce: nonce(), receiptFormat: 'batch' }, '127.0.3.1'),
      ),
    );
    const jwks = await jwksOf(t);
    const verified = receipts.map((r) => verifyBatchReceipt(r, jwks));
    expect(new Set(verified.map((v) => v.payload.salt)).size).toBe(count);
    const bySignature = new Map<string, typeof verified>();
    for (const v of verified) bySignature.set(v.signature, [...(bySignature.get(v.signature) ?? []), v]);
    expect(bySignature.size).toBeLessThan(count / 4); // trees of several answers
    for (const leaves of bySignature.values()) {
      expect(new Set(leaves.map((l) => l.root)).size).toBe(1);
      expect(new Set(leaves.map((l) => l.idx)).size).toBe(leaves.length);
      // SQLite decides a batch at one moment: a tree never mixes two batches.
      if (dialect === 'sqlite') expect(new Set(leaves.map((l) => l.payload.timestampEpochMillis)).size).toBe(1);
    }
    expect((await readLicense(t, license.id)).validationAttempts).toHaveLength(count + 1);
  });

  it('gives an unknown license a batch receipt that says false; without a nonce, receiptFormat adds nothing', async () => {
    const body = { licenseId: 'NOPE0-NOPE0-NOPE0-NOPE0-NOPE0', productId: 'p', hwid: 'h', nonce: nonce(), receiptFormat: 'batch' };
    const res = await validate(t, body);
    expect(res.json).toEqual({ valid: false });
    expect(verifyBatchReceipt(receiptOf(res), await jwksOf(t)).payload).toMatchObject({ licenseId: body.licenseId, valid: false, nonce: body.nonce });
    const license = await newLicense(t);
    const bare = await validate(t, { licenseId: license.id, productId: license.productId, hwid: 'h', receiptFormat: 'batch' });
    expect(bare.json).toEqual({ valid: true });
    expect(bare.headers['validation-receipt']).toBeUndefined();
  });

  it('refuses an unknown receiptFormat with 400 naming it', async () => {
    const license = await newLicense(t);
    for (const receiptFormat of ['jws', 'BATCH', '', 1, null]) {
      const res = await validate(t, { licenseId: license.id, productId: license.productId, hwid: 'h', nonce: nonce(), receiptFormat });
      expect(res.status).toBe(400);
      expect(res.json.error).toMatch(/receiptFormat/);
      expect(res.headers['validation-receipt']).toBeUndefined();
    }
  });

  it('signs a tree with the key a pinning client asks for (Receipt-Key-Ids), as it does today', async () => {
    const oldKid = (await jwksOf(t)).keys[0].kid;
    const rotated = await t.admin('POST', '/admin/signing-keys', { body: { activateNow: true } });
    expect(rotated.status).toBe(201);
    const license = await newLicense(t);
    const body = { licenseId: license.id, productId: license.productId, hwid: 'h', nonce: nonce(), receiptFormat: 'batch' };
    const [pinnedOld, current] = await Promise.all([
      t.req('POST', '/licenses/validate', { body, headers: { 'receipt-key-ids': oldKid } }),
      t.req('POST', '/licenses/validate', { body: { ...body, nonce: nonce() } }),
    ]);
    const jwks = await jwksOf(t);
    expect(verifyBatchReceipt(receiptOf(pinnedOld), jwks).header.kid).toBe(oldKid);
    expect(verifyBatchReceipt(receiptOf(current), jwks).header.kid).toBe(rotated.json.kid);
  });

  it('documents receiptFormat in the OpenAPI document', async () => {
    const { components, paths } = (await t.req('GET', '/openapi.json')).json;
    expect(components.schemas.ValidateBody.properties.receiptFormat).toMatchObject({ type: 'string', enum: ['batch'] });
    expect(paths['/licenses/validate'].post.description).toContain('validation-receipt+mt');
  });
});

describe('batch-signed receipts from two instances on one PostgreSQL database', () => {
  let a: TestApp;
  let b: TestApp;
  startTwoInstances('postgres', ENV, (started) => ({ a, b } = started));

  it('each instance signs trees of its own answers only; all verify with the shared key', async () => {
    const license = await newLicense(a);
    const body = { licenseId: license.id, productId: license.productId, hwid: 'HW' };
    await injectValidation(a, { ...body, nonce: nonce() }, '127.0.3.1'); // bound: the batched path
    const results = await Promise.all(
      Array.from({ length: 80 }, async (_, i) => {
        const instance = i % 2 ? a : b;
        return { instance, receipt: await injectValidation(instance, { ...body, nonce: nonce(), receiptFormat: 'batch' }, '127.0.3.1') };
      }),
    );
    const jwks = await jwksOf(a);
    const signers = new Map<string, Set<TestApp>>();
    for (const { instance, receipt } of results) {
      const { signature } = verifyBatchReceipt(receipt, jwks);
      signers.set(signature, (signers.get(signature) ?? new Set()).add(instance));
    }
    expect([...signers.values()].every((instances) => instances.size === 1)).toBe(true);
    expect(signers.size).toBeLessThan(40); // trees of more than one answer
    expect((await readLicense(b, license.id)).validationAttempts).toHaveLength(81);
  });
});

/** A validation injected into the app (no socket): many started in one tick reach the engine together. */
async function injectValidation(t: TestApp, body: Record<string, unknown>, ip: string): Promise<string> {
  const res = await t.app.inject({ method: 'POST', url: '/licenses/validate', payload: body, remoteAddress: ip });
  if (res.statusCode !== 200) throw new Error(`validate: ${res.statusCode} ${res.body}`);
  return res.headers['validation-receipt'] as string;
}
