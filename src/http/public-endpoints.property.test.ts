// Property-based: arbitrary bodies on the public endpoints (validation, the webhook,
// login) and arbitrary query strings on the record lists never answer 5xx, and every
// JSON error is exactly {"error": "<message>"} (the webhook's errors are plain text, as
// the contract says). Bounded and seeded, so a failure is reproducible.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestResponse } from '../../test/helpers/http.js';
import { newLicense } from '../../test/helpers/fixtures.js';
import { DIALECTS, startTestApp, type TestApp } from '../../test/helpers/test-app.js';

const RUNS = { seed: 20261123, numRuns: 60 };
const LIST_RUNS = { ...RUNS, numRuns: 150 };

/** Strings that have broken parsers and databases before, among arbitrary ones. */
const nasty = fc.constantFrom(
  '',
  '\u0000',
  'a\u0000b',
  '1e20',
  'Infinity',
  '-Infinity',
  'NaN',
  '1e309',
  '18446744073709551616',
  '-1',
  '0x10',
  '9'.repeat(400),
  '%',
  '\\',
  "' or 1=1 --",
  '\ud800',
  '{"a":1}',
  '[]',
  'true',
  'null',
);
const text = fc.oneof(nasty, fc.string(), fc.string({ unit: 'binary', maxLength: 40 }));
const anyJson = fc.oneof(text, fc.jsonValue({ maxDepth: 2 }));

function expectJsonAnswer(res: TestResponse, okShape: (json: unknown) => void): void {
  expect(res.status, res.text).toBeLessThan(500);
  if (res.status >= 400) {
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(Object.keys(res.json as object)).toEqual(['error']);
    expect(typeof (res.json as { error: unknown }).error).toBe('string');
    expect((res.json as { error: string }).error.length).toBeGreaterThan(0);
  } else {
    okShape(res.json);
  }
}

describe.each(DIALECTS)('public endpoints and list queries, property-based (%s)', (dialect) => {
  let t: TestApp;
  let license: { id: string; productId: string };
  beforeAll(async () => {
    t = await startTestApp(dialect, { VALIDATION_RATE_LIMIT: '1000000', WEBHOOK_RATE_LIMIT: '1000000' });
    license = await newLicense(t, { maxIps: 2, maxHwids: 2 });
  });
  afterAll(() => t.close());

  it('POST /licenses/validate: any JSON body or raw body answers {"valid"} or a 4xx {"error"}', async () => {
    const body = fc.oneof(
      fc.record(
        { licenseId: fc.oneof(anyJson, fc.constant(license.id)), productId: fc.oneof(anyJson, fc.constant(license.productId)), hwid: anyJson, nonce: anyJson },
        { requiredKeys: [] },
      ),
      anyJson,
    );
    await fc.assert(
      fc.asyncProperty(body, fc.boolean(), fc.integer({ min: 2, max: 250 }), async (value, raw, host) => {
        const opts = raw
          ? { rawBody: typeof value === 'string' ? value : JSON.stringify(value).slice(1), headers: { 'content-type': 'application/json' } }
          : { body: value };
        const res = await t.req('POST', '/licenses/validate', { ...opts, localAddress: `127.0.0.${host}` });
        expectJsonAnswer(res, (json) => expect(typeof (json as { valid: unknown }).valid).toBe('boolean'));
      }),
      RUNS,
    );
  });

  it('POST /auth/login: any body answers a token or a 4xx {"error"}', async () => {
    const body = fc.oneof(fc.record({ username: anyJson, password: anyJson }, { requiredKeys: [] }), anyJson);
    await fc.assert(
      fc.asyncProperty(body, fc.integer({ min: 2, max: 250 }), async (value, host) => {
        const res = await t.req('POST', '/auth/login', { body: value, localAddress: `127.0.1.${host}` });
        expectJsonAnswer(res, (json) => expect(typeof (json as { token: unknown }).token).toBe('string'));
      }),
      RUNS,
    );
  });

  it('the marketplace webhook: any form, multipart or JSON body answers below 500 in plain text', async () => {
    const field = fc.oneof(text, fc.constant('test-marketplace-secret'));
    const fields = fc.dictionary(fc.constantFrom('secret', 'user_id', 'resource_id', 'steam_id', 'marketplace', 'builtbybit', 'other'), field, {
      maxKeys: 6,
    });
    const encoding = fc.constantFrom('form', 'multipart', 'json');
    await fc.assert(
      fc.asyncProperty(fields, encoding, async (value, how) => {
        // Multipart and form fields are text on the wire; NUL-free so the request itself is well-formed.
        const clean = Object.fromEntries(Object.entries(value).map(([k, v]) => [k, v.replace(/[\u0000\r\n"]/g, '')]));
        const opts = how === 'json' ? { body: value } : how === 'form' ? { form: value } : { multipart: clean };
        const res = await t.req('POST', '/marketplace', opts);
        expect(res.status, res.text).toBeLessThan(500);
        expect(res.headers['content-type']).toMatch(/^text\/plain/);
        expect(res.text.length).toBeGreaterThan(0);
      }),
      RUNS,
    );
  });

  it('the record lists: any query string answers a list or a 4xx {"error"}', async () => {
    const numberish = fc.oneof(
      fc.constantFrom('1e20', 'Infinity', '1e309', '18446744073709551616', '9007199254740992', '-1', '0', '1.5', 'NaN'),
      fc.bigInt({ min: -(2n ** 70n), max: 2n ** 70n }).map(String),
      fc.double().map(String),
      fc.nat().map(String),
    );
    const params = fc.record(
      {
        limit: numberish,
        offset: numberish,
        since: numberish,
        q: text,
        email: text,
        name: text,
        productId: text,
        customerId: text,
        sort: text,
        order: text,
      },
      { requiredKeys: [] },
    );
    const list = fc.constantFrom('/customers', '/products', '/licenses', '/orders', '/actions', '/staff', '/roles', '/licenses/stats');
    await fc.assert(
      fc.asyncProperty(list, params, async (path, query) => {
        const search = new URLSearchParams(query).toString();
        const res = await t.admin('GET', search ? `${path}?${search}` : path);
        expectJsonAnswer(res, (json) => expect(json).toBeTypeOf('object'));
      }),
      LIST_RUNS,
    );
  });
});
