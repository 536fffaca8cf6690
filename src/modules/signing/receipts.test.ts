import { createPublicKey, generateKeyPairSync, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../config.js';
import { createKeyRing } from './key-ring.js';
import { auditEntries, staffWith, newLicense, createProduct, readLicense, validate } from '../../../test/helpers/fixtures.js';
import { decodePayload, verifyJws } from '../../../test/helpers/jws.js';
import { createTestDatabase, DIALECTS, startTestApp, type TestApp } from '../../../test/helpers/test-app.js';
import { until } from '../../../test/helpers/until.js';

const nonce = () => randomBytes(32).toString('base64url');
const jwksOf = async (t: TestApp) => (await t.req('GET', '/.well-known/jwks.json')).json;
const receiptOf = (res: { headers: Record<string, unknown> }) => res.headers['validation-receipt'] as string | undefined;

describe.each(DIALECTS)('signed validation receipts (%s)', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(dialect, { VALIDATION_RATE_LIMIT: '100000' });
  });
  afterAll(() => t.close());

  it('adds a receipt only when the request has a nonce, and the body stays {"valid": boolean}', async () => {
    const license = await newLicense(t);
    const args = { licenseId: license.id, productId: license.productId, hwid: 'HW-1' };
    const plain = await validate(t, args);
    expect(plain.json).toEqual({ valid: true });
    expect(receiptOf(plain)).toBeUndefined();
    const signed = await validate(t, { ...args, nonce: nonce() });
    expect(signed.json).toEqual({ valid: true });
    expect(receiptOf(signed)).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
  });

  it('signs a payload equal to the request and the answer, verifiable with the published key', async () => {
    const license = await newLicense(t);
    const other = await createProduct(t);
    const jwks = await jwksOf(t);
    expect(jwks.keys).toHaveLength(1);
    expect(jwks.keys[0]).toMatchObject({ kty: 'OKP', crv: 'Ed25519', alg: 'EdDSA', use: 'sig' });
    expect(Object.keys(jwks.keys[0]).sort()).toEqual(['alg', 'crv', 'kid', 'kty', 'use', 'x']);
    for (const [productId, valid] of [[license.productId, true], [other.id, false]] as const) {
      const body = { licenseId: license.id, productId, hwid: 'HW-2', nonce: nonce() };
      const before = Date.now();
      const res = await validate(t, body, '127.0.0.3');
      expect(res.json).toEqual({ valid });
      const { header, payload } = verifyJws(receiptOf(res)!, jwks);
      expect(header).toEqual({ alg: 'EdDSA', kid: jwks.keys[0].kid, typ: 'validation-receipt' });
      // DECISIONS.md "License policies" adds the policy fields (no reason: not revealed)
      expect(Object.keys(payload).sort()).toEqual([
        'expiresAtEpochMillis', 'features', 'graceEndsAtEpochMillis', 'hwid', 'ip', 'licenseId', 'nonce', 'productId',
        'slotTimeoutMinutes', 'timestampEpochMillis', 'valid',
      ]);
      expect(payload).toMatchObject({ ...body, ip: '127.0.0.3', valid });
      expect(payload.timestampEpochMillis).toBeGreaterThanOrEqual(before);
      expect(payload.timestampEpochMillis).toBeLessThanOrEqual(Date.now());
      const attempts = (await readLicense(t, license.id)).validationAttempts;
      expect(attempts.at(-1)!.timestampEpochMillis).toBe(payload.timestampEpochMillis); // the decision's own time
    }
  });

  it('gives an unknown license a receipt that says false', async () => {
    const body = { licenseId: 'NOPE0-NOPE0-NOPE0-NOPE0-NOPE0', productId: 'p', hwid: 'h', nonce: nonce() };
    const res = await validate(t, body);
    expect(res.json).toEqual({ valid: false });
    expect(verifyJws(receiptOf(res)!, await jwksOf(t)).payload).toMatchObject({ ...body, valid: false });
  });

  it('answers a malformed nonce with 400 naming nonce, without a receipt', async () => {
    const license = await newLicense(t);
    for (const bad of ['short', 'x'.repeat(15), 'x'.repeat(129), 'has spaces in it 1234', 'plus+signs+are+not+ok', '', null, 12345678901234567]) {
      const res = await validate(t, { licenseId: license.id, productId: license.productId, hwid: 'h', nonce: bad });
      expect(res.status).toBe(400);
      expect(res.json.error).toMatch(/nonce/);
      expect(receiptOf(res)).toBeUndefined();
    }
    for (const good of ['A'.repeat(16), 'z9_-'.repeat(32)]) {
      const res = await validate(t, { licenseId: license.id, productId: license.productId, hwid: 'h', nonce: good });
      expect(res.status).toBe(200);
      expect(decodePayload(receiptOf(res)!).nonce).toBe(good);
    }
  });

  it('activateNow rotates at once: the new key signs, the retired one stays published and what it signed still verifies', async () => {
    const license = await newLicense(t);
    const args = { licenseId: license.id, productId: license.productId, hwid: 'HW-R' };
    const oldReceipt = receiptOf(await validate(t, { ...args, nonce: nonce() }))!;
    const oldKid = (await jwksOf(t)).keys[0].kid;

    const rotated = await t.admin('POST', '/admin/signing-keys', { body: { activateNow: true } });
    expect(rotated.status).toBe(201);
    expect(rotated.json).toEqual({
      kid: expect.any(String),
      createdAtEpochMillis: expect.any(Number),
      retiredAtEpochMillis: null,
      lastSignedAtEpochMillis: null, // issue #28: a new key has not signed yet
      current: true,
      state: 'current',
    });
    const jwks = await jwksOf(t);
    expect(jwks.keys.map((k: { kid: string }) => k.kid)).toEqual([rotated.json.kid, oldKid]);
    expect(verifyJws(oldReceipt, jwks).header.kid).toBe(oldKid);
    const newReceipt = receiptOf(await validate(t, { ...args, nonce: nonce() }))!;
    expect(verifyJws(newReceipt, jwks).header.kid).toBe(rotated.json.kid);

    const list = await t.admin('GET', '/admin/signing-keys');
    // Issue #28: the list says when the new key last signed (the receipt above).
    expect(list.json[0]).toEqual({ ...rotated.json, lastSignedAtEpochMillis: expect.any(Number) });
    expect(list.json.find((k: { kid: string }) => k.kid === oldKid)).toMatchObject({ current: false, state: 'retired', retiredAtEpochMillis: expect.any(Number) });
    expect(JSON.stringify(list.json)).not.toMatch(/PRIVATE|"d"/);

    expect((await t.admin('DELETE', `/admin/signing-keys/${rotated.json.kid}`)).status).toBe(409);
    expect((await t.admin('DELETE', '/admin/signing-keys/no-such-kid')).status).toBe(404);
    expect((await t.admin('DELETE', `/admin/signing-keys/${oldKid}`)).status).toBe(204);
    expect((await jwksOf(t)).keys.map((k: { kid: string }) => k.kid)).not.toContain(oldKid);

    const rotate = (await auditEntries(t, 'signingKey.rotate'))[0]!;
    expect(JSON.parse(rotate.data)).toEqual({ kid: rotated.json.kid, x: jwks.keys[0].x, retiredKid: oldKid });
    const removed = (await auditEntries(t, 'signingKey.delete'))[0]!;
    expect(JSON.parse(removed.data)).toEqual({ kid: oldKid, x: expect.any(String) });
  });

  it('serialises concurrent rotations: one current key, every new key published', async () => {
    const results = await Promise.all([1, 2, 3].map(() => t.admin('POST', '/admin/signing-keys', { body: { activateNow: true } })));
    expect(results.map((r) => r.status)).toEqual([201, 201, 201]);
    const list = (await t.admin('GET', '/admin/signing-keys')).json as { kid: string; current: boolean }[];
    expect(list.filter((k) => k.current)).toHaveLength(1);
    const published = (await jwksOf(t)).keys.map((k: { kid: string }) => k.kid);
    for (const r of results) expect(published).toContain(r.json.kid);
    expect(published[0]).toBe(list.find((k) => k.current)!.kid);
  });

  it('documents the receipt, the key set, rotation and license files in the OpenAPI document', async () => {
    const { paths, components } = (await t.req('GET', '/openapi.json')).json;
    const validateOp = paths['/licenses/validate'].post;
    expect(validateOp.requestBody.content['application/json'].schema).toEqual({ $ref: '#/components/schemas/ValidateBody' });
    expect(components.schemas.ValidateBody.properties.nonce.pattern).toBe('^[A-Za-z0-9_-]{16,128}$');
    expect(validateOp.responses['200'].headers['Validation-Receipt']).toBeDefined();
    expect(paths['/.well-known/jwks.json'].get.security).toEqual([]);
    expect(paths['/admin/signing-keys'].post.security).toBeDefined();
    expect(paths['/admin/signing-keys/{kid}'].delete.responses).toHaveProperty('409');
    expect(paths['/licenses/{id}/license-file'].post.description).toContain('licenses:write');
  });

  it('keeps signing-key administration to the Master Admin', async () => {
    const staff = await staffWith(t, ['licenses:write']);
    for (const [method, path] of [['GET', '/admin/signing-keys'], ['POST', '/admin/signing-keys'], ['DELETE', '/admin/signing-keys/x']]) {
      const res = await t.req(method!, path!, { token: staff.token });
      expect(res.status).toBe(403);
      expect(res.json).toEqual({ error: 'Master Admin only' });
    }
    expect((await t.req('GET', '/admin/signing-keys')).status).toBe(401);
  });

  it('issues a license file with the license as payload, audited', async () => {
    const license = await newLicense(t, { maxHwids: 2, expiresAtEpochMillis: Date.now() + 86_400_000 });
    await validate(t, { licenseId: license.id, productId: license.productId, hwid: 'HW-F' }, '127.0.0.4');
    const res = await t.admin('POST', `/licenses/${license.id}/license-file`, { body: { validForDays: 30 } });
    expect(res.status).toBe(200);
    const { header, payload } = verifyJws(res.json.licenseFile, await jwksOf(t));
    expect(header.typ).toBe('license-file');
    expect(payload).toEqual({
      licenseId: license.id,
      productId: license.productId,
      customerId: license.customerId,
      expiresAtEpochMillis: license.expiresAtEpochMillis,
      maxIps: null,
      maxHwids: 2,
      usedIps: ['127.0.0.4'],
      usedHwids: ['HW-F'],
      graceEndsAtEpochMillis: null, // DECISIONS.md "License policies"
      features: {},
      slotTimeoutMinutes: null,
      issuedAtEpochMillis: expect.any(Number),
      validUntilEpochMillis: res.json.validUntilEpochMillis,
    });
    expect((payload.validUntilEpochMillis as number) - (payload.issuedAtEpochMillis as number)).toBe(30 * 86_400_000);
    const entry = (await auditEntries(t, 'licenses.issueFile'))[0]!;
    expect(JSON.parse(entry.data)).toEqual(payload);

    const byDefault = await t.admin('POST', `/licenses/${license.id}/license-file`);
    expect(byDefault.status).toBe(200);
    const p = decodePayload(byDefault.json.licenseFile);
    expect((p.validUntilEpochMillis as number) - (p.issuedAtEpochMillis as number)).toBe(365 * 86_400_000);
  });

  it('rejects bad license-file requests without writing an audit entry', async () => {
    const license = await newLicense(t);
    const before = (await auditEntries(t, 'licenses.issueFile')).length;
    for (const validForDays of [0, 3651, 1.5, 'ten']) {
      const res = await t.admin('POST', `/licenses/${license.id}/license-file`, { body: { validForDays } });
      expect(res.status).toBe(400);
      expect(res.json.error).toMatch(/validForDays/);
    }
    expect((await t.admin('POST', '/licenses/NOPE/license-file')).status).toBe(404);
    const reader = await staffWith(t, ['licenses:read']);
    expect((await t.req('POST', `/licenses/${license.id}/license-file`, { token: reader.token })).status).toBe(403);
    expect((await auditEntries(t, 'licenses.issueFile')).length).toBe(before);
  });
});

describe.each(DIALECTS)('signing key storage and configuration (%s)', (dialect) => {
  it('stores one generated key that every instance on the database shares', async () => {
    const database = await createTestDatabase(dialect);
    try {
      const a = await startTestApp(dialect, {}, database);
      const b = await startTestApp(dialect, {}, database);
      try {
        const [ja, jb] = [await jwksOf(a), await jwksOf(b)];
        expect(ja.keys).toHaveLength(1);
        expect(jb).toEqual(ja);
        // Two instances racing to create the first key end up with one.
        await a.app.db.deleteFrom('signing_keys').execute();
        const rings = await Promise.all([createKeyRing(a.app.db, null), createKeyRing(b.app.db, null)]);
        expect(await a.app.db.selectFrom('signing_keys').select('kid').execute()).toHaveLength(1);
        expect((await rings[0].current()).kid).toBe((await rings[1].current()).kid);
        // A rotation on one instance is what the other signs with shortly after (it re-reads within a second).
        const rotated = await a.admin('POST', '/admin/signing-keys', { body: { activateNow: true } });
        const license = await newLicense(b);
        const signer = async () => {
          const res = await validate(b, { licenseId: license.id, productId: license.productId, hwid: 'h', nonce: nonce() });
          return verifyJws(receiptOf(res)!, await jwksOf(b)).header.kid;
        };
        await until('the other instance signing with the rotated key', signer, (kid) => kid === rotated.json.kid, { timeoutMs: 3000 });
      } finally {
        await a.close();
        await b.close();
      }
    } finally {
      await database.drop();
    }
  });

  it('signs with a configured SIGNING_KEY, never shows it, and refuses rotation', async () => {
    const pem = generateKeyPairSync('ed25519').privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();
    const t = await startTestApp(dialect, { SIGNING_KEY: pem });
    try {
      const jwk = generateKidFromPem(pem);
      const jwks = await jwksOf(t);
      expect(jwks.keys[0]).toMatchObject({ x: jwk.x });
      const license = await newLicense(t);
      const res = await validate(t, { licenseId: license.id, productId: license.productId, hwid: 'h', nonce: nonce() });
      expect(verifyJws(receiptOf(res)!, jwks).header.kid).toBe(jwks.keys[0].kid);
      for (const body of [undefined, { activateNow: true }]) {
        const rotate = await t.admin('POST', '/admin/signing-keys', { body });
        expect(rotate.status).toBe(409);
        expect(rotate.json.error).toMatch(/SIGNING_KEY/);
      }
      expect((await t.admin('POST', `/admin/signing-keys/${jwks.keys[0].kid}/activate`)).status).toBe(409);
      const list = await t.admin('GET', '/admin/signing-keys');
      expect(list.json[0]).toMatchObject({ kid: jwks.keys[0].kid, current: true });
      const secret = pem.split('\n')[1]!;
      for (const text of [JSON.stringify(jwks), list.text, JSON.stringify(await auditEntries(t))]) expect(text).not.toContain(secret);
      expect(await t.app.db.selectFrom('signing_keys').selectAll().execute()).toEqual([]);
    } finally {
      await t.close();
    }
  });
});

function generateKidFromPem(pem: string): { x: string } {
  return { x: createPublicKey(pem).export({ format: 'jwk' }).x! };
}

describe('SIGNING_KEY configuration', () => {
  it('stops the start naming SIGNING_KEY when it is not an Ed25519 PKCS#8 key', () => {
    const rsa = generateKeyPairSync('rsa', { modulusLength: 1024 }).privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();
    for (const bad of ['not a pem', rsa]) {
      expect(() => loadConfig({ SIGNING_KEY: bad })).toThrow(/SIGNING_KEY must be an Ed25519 private key/);
    }
    const pem = generateKeyPairSync('ed25519').privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();
    expect(loadConfig({ SIGNING_KEY: pem.replaceAll('\n', '\\n') }).signingKey).toBe(pem);
  });
});
