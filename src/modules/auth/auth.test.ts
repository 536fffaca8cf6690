import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeJwt, SignJWT } from 'jose';
import { ADMIN, DIALECTS, startTestApp, type TestApp } from '../../../test/helpers/test-app.js';
import { staffWith, uniq } from '../../../test/helpers/fixtures.js';
import type { RequestOptions } from '../../../test/helpers/http.js';
import { deleteRedisKeys, randomRedisPrefix, RATE_LIMIT_STORES, TEST_REDIS_URL } from '../../../test/helpers/redis.js';

describe.each(DIALECTS)('authentication (%s)', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(dialect);
  });
  afterAll(() => t.close());

  it('logs the Master Admin in with a 7-day HS256 token and the user object', async () => {
    const res = await t.req('POST', '/auth/login', { body: ADMIN });
    expect(res.status).toBe(200);
    expect(res.json.user).toEqual({ username: ADMIN.username, isMasterAdmin: true, permissions: ['*'], role: 'Master Admin' });
    const claims = decodeJwt(res.json.token);
    expect(claims.exp! - claims.iat!).toBe(7 * 24 * 3600);
    expect(typeof claims.sub).toBe('string');
    expect(typeof claims.jti).toBe('string');
  });

  it('answers a wrong password and an unknown user with the same 401', async () => {
    const wrong = await t.req('POST', '/auth/login', { body: { username: ADMIN.username, password: 'nope-nope' }, localAddress: '127.0.0.21' });
    const unknown = await t.req('POST', '/auth/login', { body: { username: uniq('ghost'), password: 'nope-nope' }, localAddress: '127.0.0.21' });
    for (const res of [wrong, unknown]) {
      expect(res.status).toBe(401);
      expect(res.json).toEqual({ error: 'Invalid username or password' });
    }
  });

  it('rejects login bodies with missing fields (400 naming the field)', async () => {
    const res = await t.req('POST', '/auth/login', { body: { username: 'x' } });
    expect(res.status).toBe(400);
    expect(res.json.error).toContain('password');
  });

  it('blocks an IP after 10 failed logins within 15 minutes, other IPs unaffected', async () => {
    const ip = '127.0.0.22';
    for (let i = 0; i < 10; i += 1) {
      const res = await t.req('POST', '/auth/login', { body: { username: ADMIN.username, password: `bad-${i}` }, localAddress: ip });
      expect(res.status).toBe(401);
    }
    const blocked = await t.req('POST', '/auth/login', { body: ADMIN, localAddress: ip });
    expect(blocked.status).toBe(429);
    expect(blocked.json).toEqual({ error: 'Too many login attempts. Try again later.' });
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
    const basic = await t.req('GET', '/roles', { basic: [ADMIN.username, ADMIN.password], localAddress: ip });
    expect(basic.status).toBe(429);
    const other = await t.req('POST', '/auth/login', { body: ADMIN, localAddress: '127.0.0.23' });
    expect(other.status).toBe(200);
  });

  it('accepts Bearer and Basic, and rejects missing, garbage, forged and expired credentials with 401', async () => {
    expect((await t.req('GET', '/roles', { token: t.adminToken })).status).toBe(200);
    expect((await t.req('GET', '/roles', { basic: [ADMIN.username, ADMIN.password] })).status).toBe(200);

    const forged = await new SignJWT({}).setProtectedHeader({ alg: 'HS256' }).setSubject('x').setIssuedAt().setExpirationTime('1h')
      .sign(new TextEncoder().encode('another-secret-that-is-at-least-32-bytes'));
    const adminId = decodeJwt(t.adminToken).sub!;
    const expired = await new SignJWT({}).setProtectedHeader({ alg: 'HS256' }).setSubject(adminId)
      .setIssuedAt(Math.floor(Date.now() / 1000) - 7200).setExpirationTime(Math.floor(Date.now() / 1000) - 3600)
      .sign(new TextEncoder().encode(t.config.jwtSecret!));
    const cases: RequestOptions[] = [
      { headers: {} },
      { headers: { authorization: 'Bearer not-a-jwt' } },
      { headers: { authorization: 'Bearer' } },
      { headers: { authorization: 'Token abc' } },
      { headers: { authorization: `Bearer ${forged}` } },
      { headers: { authorization: `Bearer ${expired}` } },
      { headers: { authorization: 'Basic !!!' } },
      { basic: [ADMIN.username, 'wrong-password'] as [string, string], localAddress: '127.0.0.24' },
    ];
    for (const opts of cases) {
      const res = await t.req('GET', '/roles', opts);
      expect(res.status, JSON.stringify(opts)).toBe(401);
      expect(res.headers['www-authenticate']).toMatch(/^Bearer/);
      expect(typeof res.json.error).toBe('string');
    }
  });

  it('applies deactivation, role changes and deletion on the very next request', async () => {
    const acct = await staffWith(t, ['customers:read', 'roles:read']);
    expect((await t.req('GET', '/roles', { token: acct.token })).status).toBe(200);

    await t.admin('PUT', `/staff/${acct.id}/active`, { body: { active: false } });
    const bearer = await t.req('GET', '/roles', { token: acct.token });
    expect(bearer.status).toBe(401);
    const basic = await t.req('GET', '/roles', { basic: [acct.username, acct.password] });
    expect(basic.json).toEqual({ error: 'Account is deactivated' });
    const login = await t.req('POST', '/auth/login', { body: { username: acct.username, password: acct.password } });
    expect(login.status).toBe(401);
    expect(login.json).toEqual({ error: 'Account is deactivated' });

    await t.admin('PUT', `/staff/${acct.id}/active`, { body: { active: true } });
    expect((await t.req('GET', '/roles', { token: acct.token })).status).toBe(200);

    await t.admin('PUT', `/staff/${acct.id}/roles`, { body: { roleIds: [] } });
    const denied = await t.req('GET', '/roles', { token: acct.token });
    expect(denied.status).toBe(403);
    expect(denied.json).toEqual({ error: 'Missing permission: roles:read' });

    await t.admin('DELETE', `/staff/${acct.id}`);
    expect((await t.req('GET', '/roles', { token: acct.token })).status).toBe(401);
  });

  it('checks authentication before permission, and permission before validation and existence', async () => {
    const reader = await staffWith(t, ['roles:read']);
    expect((await t.req('POST', '/roles', { body: {} })).status).toBe(401);
    const noWrite = await t.req('POST', '/roles', { token: reader.token, body: {} });
    expect(noWrite.status).toBe(403);
    const noDelete = await t.req('DELETE', '/roles/does-not-exist', { token: reader.token });
    expect(noDelete.status).toBe(403);
    const malformed = await t.req('POST', '/roles', {
      token: reader.token, rawBody: '{"name":', headers: { 'content-type': 'application/json' },
    });
    expect(malformed.status).toBe(403);
  });

  it('keeps Master Admin only routes to the Master Admin', async () => {
    const manager = await staffWith(t, ['staff:manage', 'staff:read', 'roles:write']);
    const res = await t.req('POST', '/admin/registration-keys', { token: manager.token, body: {} });
    expect(res.status).toBe(403);
    expect(res.json).toEqual({ error: 'Master Admin only' });
    expect((await t.req('GET', '/admin/registration-keys', { token: manager.token })).status).toBe(403);
  });
});

describe.skipIf(!RATE_LIMIT_STORES.includes('redis'))('login limit shared through Redis', () => {
  it('blocks an IP on every instance once it failed 10 times in all', async () => {
    const prefix = randomRedisPrefix();
    const env = { REDIS_URL: TEST_REDIS_URL, REDIS_KEY_PREFIX: prefix };
    const a = await startTestApp('sqlite', env);
    const b = await startTestApp('sqlite', env, a.database);
    try {
      const ip = '127.0.0.25';
      for (let i = 0; i < 10; i += 1) {
        const res = await (i % 2 ? b : a).req('POST', '/auth/login', { body: { username: ADMIN.username, password: `bad-${i}` }, localAddress: ip });
        expect(res.status).toBe(401);
      }
      for (const t of [a, b]) {
        const blocked = await t.req('POST', '/auth/login', { body: ADMIN, localAddress: ip });
        expect(blocked.status).toBe(429);
        expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
      }
      expect((await b.req('POST', '/auth/login', { body: ADMIN, localAddress: '127.0.0.26' })).status).toBe(200);
    } finally {
      await b.close();
      await a.close();
      await deleteRedisKeys(prefix);
    }
  });
});
