// The API document declares every answer the service gives: real requests that produce
// each status (successes, client errors, rate limits, the database gone) are checked
// against the operation the document describes, including the media type of the body
// and the Retry-After / WWW-Authenticate headers the answer carries.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProduct, generateKey, newLicense, putBody, staffWith, uniq } from '../../test/helpers/fixtures.js';
import type { TestResponse } from '../../test/helpers/http.js';
import { proxyFor, viaProxy, type TcpProxy } from '../../test/helpers/tcp-proxy.js';
import { createTestDatabase, DIALECTS, startTestApp, type TestApp, type TestDatabase } from '../../test/helpers/test-app.js';
import { operationIdOf } from './openapi.js';

type Operation = {
  operationId: string;
  security: unknown[];
  responses: Record<string, { content?: Record<string, unknown>; headers?: Record<string, unknown> }>;
};

const SECRET = 'test-marketplace-secret';
const ANNOUNCED_HEADERS = ['retry-after', 'www-authenticate'];

describe.each(DIALECTS)('the OpenAPI document declares every answer (%s)', (dialect) => {
  let t: TestApp;
  let paths: Record<string, Record<string, Operation>>;
  let database: TestDatabase | undefined;
  let proxy: TcpProxy | undefined;

  beforeAll(async () => {
    const env = { VALIDATION_RATE_LIMIT: '2', WEBHOOK_RATE_LIMIT: '5', SQLITE_BUSY_TIMEOUT_MS: '50' };
    if (dialect === 'postgres') {
      // Through a TCP proxy of the test's own, so the database can be cut away.
      database = await createTestDatabase('postgres');
      proxy = await proxyFor(database.url);
      t = await startTestApp('postgres', env, { url: viaProxy(database.url, proxy), drop: async () => {} });
    } else {
      t = await startTestApp('sqlite', env);
    }
    paths = (await t.req('GET', '/openapi.json')).json.paths;
  });
  afterAll(async () => {
    await t?.close();
    await proxy?.close();
    await database?.drop();
  });

  /** The answer has `status`, and the document declares it, its media type and its headers. */
  function expectDeclared(method: string, path: string, res: TestResponse, status: number): void {
    expect(res.status, `${method} ${path}: ${res.text}`).toBe(status);
    const operation = paths[path]?.[method.toLowerCase()];
    expect(operation, `${method} ${path} is documented`).toBeDefined();
    const declared = operation!.responses[String(status)];
    expect(declared, `${method} ${path} declares ${status}`).toBeDefined();
    if (res.text !== '') {
      const mediaType = String(res.headers['content-type']).split(';')[0]!;
      expect(Object.keys(declared!.content ?? {}), `${method} ${path} ${status} media type`).toContain(mediaType);
    }
    const declaredHeaders = Object.keys(declared!.headers ?? {}).map((name) => name.toLowerCase());
    for (const header of ANNOUNCED_HEADERS.filter((name) => res.headers[name] !== undefined)) {
      expect(declaredHeaders, `${method} ${path} ${status} declares ${header}`).toContain(header);
    }
  }

  it('names every operation and marks public ones `security: []`', () => {
    const operations = Object.entries(paths).flatMap(([path, item]) => Object.entries(item).map(([method, op]) => ({ path, method, op })));
    expect(operations.length).toBeGreaterThan(40);
    for (const { path, method, op } of operations) {
      expect(op.operationId, `${method} ${path}`).toBe(operationIdOf(method, path));
      expect(Array.isArray(op.security), `${method} ${path}`).toBe(true);
    }
    expect(paths['/licenses/validate']!.post!.security).toEqual([]);
    expect(paths['/customers']!.get!.security).toEqual([{ bearerAuth: [] }, { basicAuth: [] }]);
    expect(new Set(operations.map(({ op }) => op.operationId)).size).toBe(operations.length);
  });

  it('declares the success answers, JSON and plain text', async () => {
    const customer = await t.admin('POST', '/customers', { body: { name: 'Doc', email: 'doc@example.com' } });
    expectDeclared('POST', '/customers', customer, 201);
    expectDeclared('GET', '/customers', await t.admin('GET', '/customers'), 200);
    expectDeclared('GET', '/customers/{id}', await t.admin('GET', `/customers/${customer.json.id}`), 200);
    expectDeclared('DELETE', '/customers/{id}', await t.admin('DELETE', `/customers/${customer.json.id}`), 204);
    // The body of POST /admin/registration-keys is optional, and documented so.
    expectDeclared('POST', '/admin/registration-keys', await t.admin('POST', '/admin/registration-keys'), 201);
    expect(paths['/admin/registration-keys']!.post!).toMatchObject({ requestBody: { required: false } });
    expectDeclared('GET', '/healthz', await t.req('GET', '/healthz'), 200);
    const product = await createProduct(t, { marketplaceResourceId: uniq('res') });
    const webhook = await t.req('POST', '/marketplace', {
      form: { secret: SECRET, user_id: uniq('buyer'), resource_id: product.marketplaceResourceId! },
    });
    expectDeclared('POST', '/marketplace', webhook, 200);
    expect(webhook.headers['content-type']).toMatch(/^text\/plain/);
  });

  it('declares the client errors, with their headers', async () => {
    expectDeclared('POST', '/customers', await t.admin('POST', '/customers', { body: { name: 'No email' } }), 400);
    expectDeclared('GET', '/customers', await t.req('GET', '/customers'), 401);
    expectDeclared('POST', '/auth/login', await t.req('POST', '/auth/login', { body: { username: 'root', password: 'wrong' } }), 401);
    const nobody = await staffWith(t, []);
    expectDeclared('GET', '/customers', await t.req('GET', '/customers', { token: nobody.token }), 403);
    expectDeclared('GET', '/customers/{id}', await t.admin('GET', '/customers/no-such-id'), 404);
    const huge = await t.admin('POST', '/customers', { body: { name: 'Big', email: 'big@example.com', note: 'x'.repeat(2 * 1024 * 1024) } });
    expectDeclared('POST', '/customers', huge, 413);

    const register = (registrationKey: string, username: string) =>
      t.req('POST', '/staff/register', { body: { registrationKey, username, email: `${username}@example.com`, password: 'long-enough-password', roleIds: [] } });
    expectDeclared('POST', '/staff/register', await register('no-such-key', uniq('user')), 403);
    expectDeclared('POST', '/staff/register', await register(await generateKey(t), nobody.username), 409);
    const key = await t.admin('POST', '/admin/registration-keys', { body: {} });
    expect((await register(key.json.key, uniq('user'))).status).toBe(201);
    expectDeclared('DELETE', '/admin/registration-keys/{id}', await t.admin('DELETE', `/admin/registration-keys/${key.json.id}`), 409);

    const license = await newLicense(t);
    const stale = await t.admin('PUT', `/licenses/${license.id}`, { body: putBody(license, { version: license.version + 5 }) });
    expectDeclared('PUT', '/licenses/{id}', stale, 409);

    expectDeclared('POST', '/marketplace', await t.req('POST', '/marketplace', { form: { secret: SECRET } }), 400);
    const wrongSecret = await t.req('POST', '/marketplace', { form: { secret: 'wrong', user_id: 'u', resource_id: 'r' } });
    expectDeclared('POST', '/marketplace', wrongSecret, 401);
    const unknownResource = await t.req('POST', '/marketplace', { form: { secret: SECRET, user_id: 'u', resource_id: uniq('none') } });
    expectDeclared('POST', '/marketplace', unknownResource, 404);
  });

  it('answers a body that is not JSON with 400 naming what was sent, whatever its Content-Type', async () => {
    const sent = {
      'text/plain': 'name=Plain',
      'application/x-www-form-urlencoded': 'name=Form&email=form%40example.com',
      'application/xml': '<customer/>',
    };
    const answers = await Promise.all(
      Object.entries(sent).map(([type, rawBody]) => t.admin('POST', '/customers', { rawBody, headers: { 'content-type': type } })),
    );
    for (const res of answers) expectDeclared('POST', '/customers', res, 400);
    expect(answers.map((res) => res.json)).toEqual([
      { error: 'Request body must be a JSON object' },
      { error: 'Request body must be JSON (Content-Type: application/json), not application/x-www-form-urlencoded' },
      { error: 'Request body must be JSON (Content-Type: application/json), not application/xml' },
    ]);
    const xmlWebhook = await t.req('POST', '/marketplace', { rawBody: '<a/>', headers: { 'content-type': 'application/xml' }, localAddress: '127.0.0.9' });
    expectDeclared('POST', '/marketplace', xmlWebhook, 400);
    expect(xmlWebhook.text).toBe('Request body must be form-encoded, multipart/form-data or JSON, not application/xml');
    const customers = (await t.admin('GET', '/customers')).json as { name: string }[];
    expect(customers.filter((c) => ['Plain', 'Form'].includes(c.name))).toEqual([]);
  });

  it('declares the rate limits and the login lockout, with Retry-After', async () => {
    const validate = () =>
      t.req('POST', '/licenses/validate', { body: { licenseId: 'x', productId: 'y', hwid: 'z' }, localAddress: '127.0.0.6' });
    const validations = [await validate(), await validate(), await validate()];
    expectDeclared('POST', '/licenses/validate', validations[2]!, 429);
    const webhook = () => t.req('POST', '/integrations/marketplace', { form: { secret: 'wrong', user_id: 'u', resource_id: 'r' }, localAddress: '127.0.0.7' });
    for (let i = 0; i < 5; i += 1) expect((await webhook()).status).toBe(401);
    expectDeclared('POST', '/integrations/marketplace', await webhook(), 429);
    const login = () => t.req('POST', '/auth/login', { body: { username: 'root', password: 'wrong' }, localAddress: '127.0.0.8' });
    for (let i = 0; i < 10; i += 1) expect((await login()).status).toBe(401);
    expectDeclared('POST', '/auth/login', await login(), 429);
    const basic = await t.req('GET', '/customers', { basic: ['root', 'wrong'], localAddress: '127.0.0.8' });
    expectDeclared('GET', '/customers', basic, 429);
  });

  it('declares the 503 answers given while the database is unavailable', async () => {
    const product = await createProduct(t, { marketplaceResourceId: uniq('res') });
    const goAway = dialect === 'sqlite' ? () => sql`pragma query_only = 1`.execute(t.app.db) : () => proxy!.cut();
    const comeBack = dialect === 'sqlite' ? () => sql`pragma query_only = 0`.execute(t.app.db) : () => proxy!.restore();
    await goAway();
    try {
      const write = await t.admin('POST', '/customers', { body: { name: 'Down', email: 'down@example.com' } });
      expectDeclared('POST', '/customers', write, 503);
      const webhook = await t.req('POST', '/marketplace', {
        form: { secret: SECRET, user_id: uniq('buyer'), resource_id: product.marketplaceResourceId! },
        localAddress: '127.0.0.10',
      });
      expectDeclared('POST', '/marketplace', webhook, 503);
      expect(webhook.headers['retry-after']).toBe('5');
    } finally {
      await comeBack();
    }
  });
});
