// No full license key in any log line (DECISIONS.md, "Privilege boundaries"): a run that
// exercises every license route, successes and failures, at debug level, with the
// production logger options writing JSON to a captured stream; then a grep for the keys.
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app.js';
import { createProduct, newLicense, putBody, uniq } from '../../test/helpers/fixtures.js';
import { request, type RequestOptions } from '../../test/helpers/http.js';
import { ADMIN, createTestDatabase, DIALECTS, testConfig, type TestApp, type TestDatabase } from '../../test/helpers/test-app.js';
import { maskLicenseKeys, redactLicenseUrl, loggerOptions } from './logger.js';

describe('license keys in log lines', () => {
  it('cuts the id of /licenses/... URLs to its first 5 characters, and leaves route words alone', () => {
    expect(redactLicenseUrl('/licenses/ABCDE-FGHJK-MNPQR-STVWX-YZ012')).toBe('/licenses/ABCDE…');
    expect(redactLicenseUrl('/licenses/ABCDE-FGHJK-MNPQR-STVWX-YZ012/revoke?x=1')).toBe('/licenses/ABCDE…/revoke?x=1');
    expect(redactLicenseUrl('/licenses/whatever-id-someone-typed/license-file')).toBe('/licenses/whatever-id-someone-typed/license-file');
    expect(redactLicenseUrl('/licenses/abc123def456')).toBe('/licenses/abc12…');
    expect(redactLicenseUrl('/licenses/validate')).toBe('/licenses/validate');
    expect(redactLicenseUrl('/licenses?limit=5')).toBe('/licenses?limit=5');
    expect(redactLicenseUrl('/customers/0193-abcd')).toBe('/customers/0193-abcd');
  });

  it('cuts anything shaped like a key anywhere in a line: hyphenated or percent-encoded, any case', () => {
    const line = '{"msg":"x ABCDE-FGHJK-MNPQR-STVWX-YZ012 abcde%2Dfghjk%2Dmnpqr%2Dstvwx%2Dyz012 (ABCDE-FGHJK-MNPQR-STVWX-YZ012)"}';
    expect(maskLicenseKeys(line)).toBe('{"msg":"x ABCDE… abcde… (ABCDE…)"}');
    expect(maskLicenseKeys('{"id":"01938c2e-7a4b-7c3d-9e8f-0a1b2c3d4e5f"}')).toBe('{"id":"01938c2e-7a4b-7c3d-9e8f-0a1b2c3d4e5f"}');
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
    // Nothing but the first group survives: no second group of the key anywhere.
    expect(log).not.toContain(key.slice(6, 11));
  });
});
