import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, startTestApp, type TestApp } from '../test/helpers/test-app.js';
import { createRole } from './modules/roles/roles.service.js';

describe.each(DIALECTS)('the HTTP surface (%s)', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(dialect);
  });
  afterAll(() => t.close());

  it('reports health and readiness', async () => {
    expect((await t.req('GET', '/healthz')).json).toEqual({ status: 'ok' });
    expect((await t.req('GET', '/readyz')).json).toEqual({ status: 'ready' });
  });

  it('sends browser pages helmet\'s headers, without upgrade-insecure-requests so plain HTTP keeps working', async () => {
    for (const path of ['/portal/', '/portal/customers/some-id', '/docs/']) {
      const res = await t.req('GET', path);
      expect(res.status, path).toBe(200);
      expect(res.headers['content-type'], path).toMatch(/^text\/html/);
      expect(res.headers['x-content-type-options'], path).toBe('nosniff');
      expect(res.headers['x-frame-options'], path).toBe('SAMEORIGIN');
      expect(res.headers['strict-transport-security'], path).toMatch(/max-age=/);
      expect(res.headers['content-security-policy'], path).toContain("default-src 'self'");
      expect(res.headers['content-security-policy'], path).not.toContain('upgrade-insecure-requests');
    }
  });

  it("gives the portal a style-src of 'self' only (no 'unsafe-inline', no https:)", async () => {
    for (const path of ['/portal/', '/portal/customers/some-id']) {
      const csp = (await t.req('GET', path)).headers['content-security-policy'] as string;
      const styleSrc = csp.split(';').map((d) => d.trim()).find((d) => d.startsWith('style-src '));
      expect(styleSrc, path).toBe("style-src 'self'");
      expect(csp, path).toContain("script-src 'self'");
    }
  });

  it('sends API answers X-Content-Type-Options: nosniff, including errors and the public endpoints', async () => {
    const answers = [
      await t.req('GET', '/healthz'),
      await t.req('GET', '/nope'),
      await t.req('GET', '/customers'),
      await t.req('POST', '/licenses/validate', { body: { licenseId: 'x', productId: 'y', hwid: 'z' } }),
      await t.req('POST', '/marketplace', { body: {} }),
    ];
    expect(answers.map((res) => res.status)).toEqual([200, 404, 401, 200, 400]);
    for (const res of answers) {
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['content-security-policy']).toBeUndefined();
    }
  });

  it('answers unknown routes with a JSON 404', async () => {
    const res = await t.req('GET', '/nope');
    expect(res.status).toBe(404);
    expect(res.json.error).toMatch(/not found/);
  });

  it('answers malformed JSON, wrong content types and oversized bodies with a clean 4xx', async () => {
    const json = { 'content-type': 'application/json' };
    const malformed = await t.req('POST', '/auth/login', { rawBody: '{"username":', headers: json });
    expect(malformed.status).toBe(400);
    expect(malformed.json).toEqual({ error: 'Request body is not valid JSON' });
    // A body that is not JSON is a 400 whatever its Content-Type (docs/decisions.md).
    const xml = await t.req('POST', '/auth/login', { rawBody: '<a/>', headers: { 'content-type': 'application/xml' } });
    expect(xml.status).toBe(400);
    expect(xml.json).toEqual({ error: 'Request body must be JSON (Content-Type: application/json), not application/xml' });
    const big = await t.req('POST', '/auth/login', { body: { username: 'x', password: 'y'.repeat(2 * 1024 * 1024) } });
    expect(big.status).toBe(413);
    expect(big.json.error).toMatch(/too large/);
    for (const res of [malformed, xml, big]) expect(res.text).not.toMatch(/\n\s+at /);
  });

  it('answers NUL characters and undecodable URLs with a 4xx on every database, never a 500', async () => {
    expect((await t.admin('GET', '/roles/%00')).status).toBe(404);
    expect((await t.admin('GET', '/staff/a%00b')).status).toBe(404);
    const body = await t.admin('POST', '/roles', { body: { name: 'a\u0000b', permissions: [] } });
    expect(body.status).toBe(400);
    expect(body.json).toEqual({ error: 'name must not contain NUL characters' });
    const query = await t.admin('GET', '/actions?name=%00');
    expect(query.status).toBe(400);
    expect(query.json.error).toContain('name');
    const webhook = await t.req('POST', '/marketplace', { form: { secret: 'x', user_id: 'a\u0000', resource_id: '1' } });
    expect(webhook.status).toBe(400);
    const bad = await t.admin('GET', '/roles/%ZZ');
    expect(bad.status).toBe(400);
    expect(bad.json).toEqual({ error: 'Malformed URL' });
  });

  it('serves an OpenAPI 3.1 document describing the routes and their permissions, and a docs page', async () => {
    const res = await t.req('GET', '/openapi.json');
    expect(res.status).toBe(200);
    expect(res.json.openapi).toBe('3.1.0');
    expect(res.json.paths['/roles'].post.description).toContain('roles:write');
    expect(res.json.paths['/staff/register'].post.security).toEqual([]);
    expect(Object.keys(res.json.paths['/roles/{id}'].put.responses).sort()).toEqual(['200', '400', '401', '403', '404', '413', '429', '503']);
    expect(res.json.paths['/admin/registration-keys'].post.security).toBeDefined();
    expect((await t.req('GET', '/docs/')).status).toBe(200);
  });

  it('commits a mutation and its audit entry together or not at all', async () => {
    const name = `rolled-back-${Date.now()}`;
    await expect(
      t.app.transaction(async (trx) => {
        await createRole(trx, 'root', { name, permissions: [] });
        throw new Error('fails after the write');
      }),
    ).rejects.toThrow('fails after the write');
    const roles = await t.admin('GET', '/roles');
    expect(roles.json.some((r: { name: string }) => r.name === name)).toBe(false);
    const audit = await t.admin('GET', '/actions?limit=1000');
    expect(audit.text).not.toContain(name);
  });
});
