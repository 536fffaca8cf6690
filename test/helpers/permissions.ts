// Shared checks of a module's permission mapping: every route is 401 without
// credentials, 403 for an account holding every permission of the module but its own,
// and allowed for an account holding only its own.
import { expect } from 'vitest';
import { staffWith } from './fixtures.js';
import type { TestApp } from './test-app.js';

export interface ProtectedRoute {
  method: string;
  path: string;
  permission: string;
  body?: unknown;
  /** Status for an account holding only `permission`; routes run in the given order. */
  okStatus: number;
}

export async function expectPermissionMapping(t: TestApp, routes: ProtectedRoute[], modulePermissions: string[]) {
  for (const route of routes) {
    const anonymous = await t.req(route.method, route.path, { body: route.body });
    expect(anonymous.status, `${route.method} ${route.path} without credentials`).toBe(401);
    expect(anonymous.headers['www-authenticate']).toBeDefined();

    const others = await staffWith(t, modulePermissions.filter((p) => p !== route.permission));
    const denied = await t.req(route.method, route.path, { body: route.body, token: others.token });
    expect(denied.status, `${route.method} ${route.path} without ${route.permission}`).toBe(403);
    expect(denied.json).toEqual({ error: `Missing permission: ${route.permission}` });

    // Permission is checked before the body and before existence: an invalid body is still 403.
    if (route.body !== undefined) {
      const invalid = await t.req(route.method, route.path, { body: {}, token: others.token });
      expect(invalid.status).toBe(403);
    }

    const only = await staffWith(t, [route.permission]);
    const allowed = await t.req(route.method, route.path, { body: route.body, token: only.token });
    expect(allowed.status, `${route.method} ${route.path} with only ${route.permission}`).toBe(route.okStatus);
  }
}
