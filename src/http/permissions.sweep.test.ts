// Every protected route of the app, enumerated from Fastify as it registered them (not a
// hand-kept list, so a new route is swept the day it is added): 401 with a challenge
// without credentials, 403 for an account that lacks the route's permission.
// Module tests (expectPermissionMapping) check that the permission itself admits.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MASTER_ADMIN, SIGNED_IN } from './authenticate.js';
import { staffWith, uniq, type StaffAccount } from '../../test/helpers/fixtures.js';
import { DIALECTS, startTestApp, type TestApp } from '../../test/helpers/test-app.js';

/** Any value fills a path parameter: the permission is checked before the record is looked up. */
const concrete = (url: string) => url.replace(/:[A-Za-z]+/g, 'sweep-0000');

describe.each(DIALECTS)('every protected route (%s)', (dialect) => {
  let t: TestApp;
  let noPermissions: StaffAccount;
  let apiToken: string;

  beforeAll(async () => {
    t = await startTestApp(dialect);
    noPermissions = await staffWith(t, []);
    const created = await t.admin('POST', '/api-tokens', {
      body: { name: uniq('sweep'), permissions: ['customers:read'], expiresAtEpochMillis: null },
    });
    expect(created.status).toBe(201);
    apiToken = created.json.token;
  });
  afterAll(() => t.close());

  it('finds the protected routes of every module (the sweep is not empty)', () => {
    const routes = t.app.protectedRoutes.map((r) => `${r.method} ${r.url} ${r.permission}`);
    expect(routes).toEqual(
      expect.arrayContaining([
        'GET /customers customers:read',
        'POST /licenses licenses:write',
        'GET /actions actions:read',
        `POST /admin/registration-keys ${MASTER_ADMIN}`,
        `POST /api-tokens ${SIGNED_IN}`,
      ]),
    );
    expect(new Set(t.app.protectedRoutes.map((r) => r.url.split('/')[1])).size).toBeGreaterThanOrEqual(10);
  });

  it('answers 401 with a challenge to a request without credentials, on every protected route', async () => {
    const wrong: string[] = [];
    for (const route of t.app.protectedRoutes) {
      const res = await t.req(route.method, concrete(route.url));
      if (res.status !== 401 || !res.headers['www-authenticate']) wrong.push(`${route.method} ${route.url}: ${res.status}`);
    }
    expect(wrong).toEqual([]);
  });

  it('answers 403 to an account lacking the permission, on every protected route', async () => {
    const wrong: string[] = [];
    for (const route of t.app.protectedRoutes) {
      // Any account may use SIGNED_IN routes; what they refuse is an API token.
      const token = route.permission === SIGNED_IN ? apiToken : noPermissions.token;
      const expected =
        route.permission === SIGNED_IN
          ? 'API tokens cannot manage accounts or tokens; sign in with a password'
          : route.permission === MASTER_ADMIN
            ? 'Master Admin only'
            : `Missing permission: ${route.permission}`;
      const res = await t.req(route.method, concrete(route.url), { token });
      const ok = res.status === 403 && (route.method === 'HEAD' || res.json?.error === expected);
      if (!ok) wrong.push(`${route.method} ${route.url}: ${res.status} ${res.text}`);
    }
    expect(wrong).toEqual([]);
  });
});
