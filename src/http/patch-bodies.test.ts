// Every PATCH route of the app, enumerated from Fastify as it registered them (a new one
// fails the first test until it is given a record here): a body that names nothing to
// change is 400 naming the problem and changes nothing; arbitrary JSON never answers 5xx.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEntries, createCustomer, createProduct, newLicense, uniq } from '../../test/helpers/fixtures.js';
import type { TestResponse } from '../../test/helpers/http.js';
import { DIALECTS, startTestApp, type TestApp } from '../../test/helpers/test-app.js';
import { NOTHING_TO_CHANGE } from './patch-bodies.js';

const RUNS = { seed: 20261130, numRuns: 60 };

/** A fresh record of each PATCH route, and the route's path to it. */
const RECORDS: Record<string, (t: TestApp) => Promise<string>> = {
  '/products/:id': async (t) => `/products/${(await createProduct(t)).id}`,
  '/customers/:id': async (t) => `/customers/${(await createCustomer(t)).id}`,
  '/licenses/:id': async (t) => `/licenses/${(await newLicense(t)).id}`,
  '/blocklist/:id': async (t) => {
    const res = await t.admin('POST', '/blocklist', { body: { type: 'hwid', value: uniq('hw') } });
    if (res.status !== 201) throw new Error(`blocklist: ${res.status} ${res.text}`);
    return `/blocklist/${res.json.id}`;
  },
  '/releases/:id': async (t) => {
    const res = await t.admin('POST', `/products/${(await createProduct(t)).id}/releases`, { body: { version: '1.0.0' } });
    if (res.status !== 201) throw new Error(`releases: ${res.status} ${res.text}`);
    return `/releases/${res.json.id}`;
  },
};

function expectErrorOnly(res: TestResponse): void {
  expect(res.status, res.text).toBeLessThan(500);
  if (res.status < 400) return;
  expect(Object.keys(res.json as object)).toEqual(['error']);
  expect(typeof (res.json as { error: unknown }).error).toBe('string');
}

describe.each(DIALECTS)('PATCH bodies (%s)', (dialect) => {
  let t: TestApp;
  const patchRoutes = () => t.app.protectedRoutes.filter((r) => r.method === 'PATCH').map((r) => r.url);
  beforeAll(async () => {
    t = await startTestApp(dialect);
  });
  afterAll(() => t.close());

  it('knows a record for every PATCH route the app has', () => {
    expect(patchRoutes().length).toBeGreaterThanOrEqual(4);
    expect([...patchRoutes()].sort()).toEqual(Object.keys(RECORDS).sort());
  });

  it('answers a body naming no field to change 400, and changes nothing', async () => {
    for (const route of patchRoutes()) {
      const path = await RECORDS[route]!(t);
      const before = await t.admin('GET', path);
      const entries = (await auditEntries(t)).length;
      for (const body of [{}, { foo: 1 }, { foo: 1, bar: null }]) {
        const res = await t.admin('PATCH', path, { body });
        expect(res.status, `${route} ${JSON.stringify(body)}: ${res.text}`).toBe(400);
        expect(Object.keys(res.json)).toEqual(['error']);
        if ('foo' in body) expect(res.json.error, route).toContain('foo');
        else expect(res.json.error, route).toBe(NOTHING_TO_CHANGE);
      }
      expect((await t.admin('GET', path)).json, route).toEqual(before.json);
      expect((await auditEntries(t)).length, route).toBe(entries);
    }
  });

  it('ignores unknown fields beside a known one where the schema does (not on the blocklist, which names them)', async () => {
    const product = await t.admin('PATCH', await RECORDS['/products/:id']!(t), { body: { foo: 1 } });
    expect(product.json.error).toBe(`${NOTHING_TO_CHANGE} (unknown fields are ignored: "foo")`);
    const path = await RECORDS['/products/:id']!(t);
    const ok = await t.admin('PATCH', path, { body: { price: 5, foo: 1 } });
    expect(ok.status, ok.text).toBe(200);
    expect(ok.json.price).toBe(5);
    expect(ok.json).not.toHaveProperty('foo');
    const rule = await t.admin('PATCH', await RECORDS['/blocklist/:id']!(t), { body: { note: 'x', foo: 1 } });
    expect(rule.status).toBe(400);
    expect(rule.json.error).toMatch(/^foo cannot be changed/);
  });

  it('answers a license PATCH carrying only its version 400, and bumps nothing', async () => {
    const license = await newLicense(t);
    const res = await t.admin('PATCH', `/licenses/${license.id}`, { body: { version: license.version } });
    expect(res.status).toBe(400);
    expect(res.json.error).toBe(NOTHING_TO_CHANGE);
    expect((await t.admin('GET', `/licenses/${license.id}`)).json.version).toBe(license.version);
  });

  it('never answers 5xx to arbitrary JSON on any PATCH route (property-based)', async () => {
    const paths = await Promise.all(patchRoutes().map((route) => RECORDS[route]!(t)));
    // Known field names with arbitrary values, unknown names, and bodies that are not objects.
    const fields = fc.constantFrom(
      'name', 'price', 'email', 'socials', 'note', 'mode', 'expiresAtEpochMillis', 'maxIps', 'features', 'version',
      'productId', 'customerId', 'usedIps', 'validationAttempts', 'sharingAlert', 'expiryBasis', 'validForDays', 'foo', '__proto__',
    );
    const body = fc.oneof(fc.dictionary(fields, fc.jsonValue({ maxDepth: 2 }), { maxKeys: 4 }), fc.jsonValue({ maxDepth: 2 }));
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...paths), body, async (path, value) => {
        expectErrorOnly(await t.admin('PATCH', path, { body: value }));
      }),
      RUNS,
    );
  });
});
