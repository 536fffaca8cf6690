// No full license key in any log line (DECISIONS.md, "Privilege boundaries"): a run that
// exercises every license route, successes and failures, at debug level, with the
// production logger options writing JSON to a captured stream; then a grep for the keys.
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app.js';
import { createProduct, newLicense, putBody, uniq } from '../../test/helpers/fixtures.js';
import { request, type RequestOptions } from '../../test/helpers/http.js';
import { ADMIN, createTestDatabase, DIALECTS, testConfig, type TestApp, type TestDatabase } from '../../test/helpers/test-app.js';
import { maskLicenseKeys, redactUrl, loggerOptions } from './logger.js';

const KEY = 'ABCDE-FGHJK-MNPQR-STVWX-YZ012';
/** Every letter and digit percent-encoded, as a client may send it. */
const encodeAll = (text: string) => [...text].map((c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`).join('');
/** Percent escapes read back, so an assertion sees what a reader of the log would. */
const decodePercent = (text: string) => text.replace(/%([0-9A-Fa-f]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));

describe('license keys in log lines', () => {
  it('cuts the id of /licenses/... URLs no route matched to its first 5 characters, and leaves route words alone', () => {
    expect(redactUrl(`/licenses/${KEY}`)).toBe('/licenses/ABCDE…');
    expect(redactUrl(`/licenses/${KEY}/revoke?x=1`)).toBe('/licenses/ABCDE…/revoke?x=1');
    expect(redactUrl('/licenses/whatever-id-someone-typed/license-file')).toBe('/licenses/whatever-id-someone-typed/license-file');
    expect(redactUrl('/licenses/abc123def456')).toBe('/licenses/abc12…');
    expect(redactUrl('/LICENSES/abc123def456')).toBe('/LICENSES/abc12…');
    expect(redactUrl('/licenses/validate')).toBe('/licenses/validate');
    expect(redactUrl('/licenses?limit=5')).toBe('/licenses?limit=5');
    expect(redactUrl('/customers/0193-abcd')).toBe('/customers/0193-abcd');
  });

  it('cuts every path parameter of the matched route that is not a UUID', () => {
    expect(redactUrl(`/licenses/${KEY}/revoke`, '/licenses/:id/revoke')).toBe('/licenses/ABCDE…/revoke');
    expect(redactUrl(`/customers/${KEY.toLowerCase()}`, '/customers/:id')).toBe('/customers/abcde…');
    expect(redactUrl('/customers/01938c2e-7a4b-7c3d-9e8f-0a1b2c3d4e5f', '/customers/:id')).toBe('/customers/01938c2e-7a4b-7c3d-9e8f-0a1b2c3d4e5f');
    expect(redactUrl('/licenses/validate', '/licenses/validate')).toBe('/licenses/validate');
  });

  it('reads the URL percent-decoded: escaped letters and dashes, undashed, lowercase and partial keys are cut', () => {
    expect(redactUrl(`/licenses/${encodeAll(KEY)}/revoke`, '/licenses/:id/revoke')).toBe('/licenses/ABCDE…/revoke');
    expect(redactUrl(`/licenses/%41BCDE${KEY.slice(5).replaceAll('-', '%2D')}`)).toBe('/licenses/ABCDE…');
    expect(redactUrl(`/nowhere/${KEY.replaceAll('-', '').toLowerCase()}`)).toBe('/nowhere/abcde…');
    expect(redactUrl(`/nowhere/${encodeAll(KEY.slice(0, 17))}/x`)).toBe('/nowhere/ABCDE…/x');
    expect(redactUrl(`/license/${KEY.slice(0, 9)}`)).toBe('/license/ABCDE…');
  });

  it('cuts the value of a query parameter that carries keys whatever its shape, and key-shaped values of any other', () => {
    expect(redactUrl(`/blocklist?licenseId=${KEY.slice(0, 8)}&limit=5`, '/blocklist')).toBe('/blocklist?licenseId=ABCDE…&limit=5');
    expect(redactUrl(`/orders?LicenseIds=${encodeAll(KEY)}`, '/orders')).toBe('/orders?LicenseIds=ABCDE…');
    expect(redactUrl(`/licenses?search=${KEY.toLowerCase().replaceAll('-', '+')}`, '/licenses')).toBe('/licenses?search=abcde…');
    expect(redactUrl(`/x?note=see+${KEY.replaceAll('-', '%2d')}&name=licenses.create`)).toBe('/x?note=see+ABCDE…&name=licenses.create');
    expect(redactUrl('/webhook-endpoints/event-types?sort=createdAtEpochMillis')).toBe('/webhook-endpoints/event-types?sort=createdAtEpochMillis');
  });

  it('cuts anything shaped like a key anywhere in a line: hyphenated or percent-encoded, any case', () => {
    const line = '{"msg":"x ABCDE-FGHJK-MNPQR-STVWX-YZ012 abcde%2Dfghjk%2Dmnpqr%2Dstvwx%2Dyz012 (ABCDE-FGHJK-MNPQR-STVWX-YZ012)"}';
    expect(maskLicenseKeys(line)).toBe('{"msg":"x ABCDE… abcde… (ABCDE…)"}');
    expect(maskLicenseKeys('{"id":"01938c2e-7a4b-7c3d-9e8f-0a1b2c3d4e5f"}')).toBe('{"id":"01938c2e-7a4b-7c3d-9e8f-0a1b2c3d4e5f"}');
  });

  it('cuts percent-encoded letters, undashed keys and partial keys in a line, and leaves ordinary words and numbers alone', () => {
    expect(maskLicenseKeys(`{"msg":"${encodeAll(KEY)}"}`)).toBe('{"msg":"ABCDE…"}');
    expect(maskLicenseKeys(`{"msg":"no ${KEY.replaceAll('-', '').toLowerCase()} here"}`)).toBe('{"msg":"no abcde… here"}');
    expect(maskLicenseKeys(`{"msg":"typed ${KEY.slice(0, 14)}, then ${KEY.slice(0, 11)}"}`)).toBe('{"msg":"typed ABCDE…, then ABCDE-FGHJK"}');
    expect(maskLicenseKeys('{"msg":"typed AB1DE-FGHJK and AB1DEFGHJKMNPQR"}')).toBe('{"msg":"typed AB1DE… and AB1DE…"}');
    const ordinary = '{"url":"/webhook-endpoints/event-types","time":1764000000000,"n":18446744073709551616,"f":"validationAttemptCount"}';
    expect(maskLicenseKeys(ordinary)).toBe(ordinary);
  });
});

describe.each(DIALECTS)('a run over every license route logs no key (%s)', (dialect) => {
  const lines: string[] = [];
  let app: FastifyInstance;
  let database: TestDatabase;
  let t: TestApp;

  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    const config = testConfig(database.url, { LOG_LEVEL: 'trace', VALIDATION_RATE_LIMIT: '100000' });
    app = await buildApp(config, { logger: loggerOptions(config, { write: (line: string) => lines.push(line) }) });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const address = app.server.address();
    const baseUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
    const req = (method: string, path: string, opts?: RequestOptions) => request(baseUrl, method, path, opts);
    const token = ((await req('POST', '/auth/login', { body: ADMIN })).json as { token: string }).token;
    t = {
      app,
      baseUrl,
      config,
      database,
      adminToken: token,
      req,
      admin: (method, path, opts = {}) => req(method, path, opts.token || opts.basic ? opts : { ...opts, token }),
      close: async () => undefined,
    };
  });
  afterAll(async () => {
    await app?.close();
    await database?.drop();
  });

  it('exercises create, list, read, replace, license file, revoke, reinstate, validate, release, stats, delete, and errors', async () => {
    const product = await createProduct(t);
    const license = await newLicense(t, { productId: product.id, maxHwids: 1 });
    const key = license.id;
    const lowercase = key.toLowerCase();
    const calls: [string, string, unknown?][] = [
      ['GET', `/licenses?limit=5&search=${key}`],
      ['GET', `/licenses?customerId=${license.customerId}`],
      ['GET', `/licenses/${key}`],
      ['HEAD', `/licenses/${key}`],
      ['GET', `/licenses/${lowercase}`],
      ['GET', `/licenses/${encodeURIComponent(key).replaceAll('-', '%2D')}`],
      ['GET', `/licenses/${encodeAll(key)}/license-file`],
      ['GET', `/licenses/${key.replaceAll('-', '')}`],
      ['GET', `/licenses/${key.slice(0, 17)}`],
      ['GET', `/LICENSES/${lowercase}`],
      ['GET', `/customers/${key}`],
      ['GET', `/blocklist?licenseId=${encodeAll(key)}`],
      ['GET', `/blocklist?licenseId=${key.slice(0, 11)}`],
      ['GET', `/orders?licenseId=${lowercase.replaceAll('-', '')}`],
      ['GET', `/nowhere?q=${key.slice(0, 17).replaceAll('-', '%2D')}`],
      ['PUT', `/licenses/${key}`, putBody(license, { note: `note about ${key}` })],
      ['PUT', `/licenses/${key}`, { version: -1 }],
      ['GET', `/licenses/${key}/license-file`],
      ['POST', `/licenses/${key}/revoke`, { reason: `refund of ${key}` }],
      ['POST', `/licenses/${key}/reinstate`, {}],
      ['POST', '/licenses/validate', { licenseId: key, productId: product.id, hwid: 'hw-1' }],
      ['POST', '/licenses/validate', { licenseId: key, productId: product.id, hwid: 'hw-2' }],
      ['POST', '/licenses/validate', { licenseId: key, productId: uniq('other'), hwid: 'hw-1' }],
      ['POST', '/licenses/release', { licenseId: key, productId: product.id, hwid: 'hw-1' }],
      ['GET', `/licenses/stats`],
      ['GET', `/licenses/${key}/unknown-route`],
      ['POST', `/licenses/${key}/revoke`, 'not json'],
      ['GET', `/licenses/${key}x`],
      ['DELETE', `/licenses/${key}`],
      ['GET', `/licenses/${key}`],
    ];
    const statuses: number[] = [];
    for (const [method, path, body] of calls) {
      const res = await t.admin(method, path, typeof body === 'string' ? { rawBody: body, headers: { 'content-type': 'application/json' } } : { body });
      statuses.push(res.status);
    }
    // The run did reach the routes (not just 404s): reads, writes and validations succeeded.
    expect(statuses.filter((s) => s === 200).length).toBeGreaterThanOrEqual(8);
    // An error log line carrying a key (as a failing query might) is cut too.
    app.log.error({ err: new Error(`cannot update ${key}`) }, `unhandled error for ${key}`);

    const log = lines.join('');
    expect(lines.length).toBeGreaterThan(calls.length * 2);
    expect(log).toContain(`/licenses/${key.slice(0, 5)}…`);
    expect(log).toContain('cannot update');
    for (const spelling of [key, lowercase, key.replaceAll('-', ''), key.replaceAll('-', '%2D')]) {
      expect(log.toLowerCase()).not.toContain(spelling.toLowerCase());
    }
    // Nothing but the first group survives: no later group of the key anywhere, in any case, escaped or not.
    const readable = decodePercent(log).toLowerCase();
    for (const group of [key.slice(6, 11), key.slice(12, 17), key.slice(18, 23), key.slice(24)]) {
      expect(readable).not.toContain(group.toLowerCase());
    }
  });
});
