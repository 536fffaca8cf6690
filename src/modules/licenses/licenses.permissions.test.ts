import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { staffWith, newLicense, putBody } from '../../../test/helpers/fixtures.js';
import { DIALECTS, startTestApp, type TestApp } from '../../../test/helpers/test-app.js';

describe.each(DIALECTS)('license permissions (%s)', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(dialect);
  });
  afterAll(() => t.close());

  it('needs credentials on every license route except validation', async () => {
    const license = await newLicense(t);
    for (const [method, path] of [['GET', '/licenses'], ['POST', '/licenses'], ['GET', `/licenses/${license.id}`], ['PUT', `/licenses/${license.id}`], ['DELETE', `/licenses/${license.id}`]]) {
      const res = await t.req(method!, path!, { body: method === 'POST' || method === 'PUT' ? {} : undefined });
      expect(res.status, `${method} ${path}`).toBe(401);
    }
  });

  it('maps read, write and delete to their own permission, none implying another', async () => {
    const license = await newLicense(t);
    const body = { productId: license.productId, customerId: license.customerId };
    const calls = {
      read: [
        (token: string) => t.req('GET', '/licenses', { token }),
        (token: string) => t.req('GET', `/licenses/${license.id}`, { token }),
        (token: string) => t.req('GET', '/licenses/unknown-id', { token }),
      ],
      write: [
        (token: string) => t.req('POST', '/licenses', { token, body }),
        (token: string) => t.req('PUT', `/licenses/${license.id}`, { token, body: putBody(license, { version: 99 }) }),
        (token: string) => t.req('PUT', '/licenses/unknown-id', { token, body: putBody(license) }),
      ],
      delete: [(token: string) => t.req('DELETE', '/licenses/unknown-id', { token })],
    } as const;
    const allowedStatus = { read: [200, 200, 404], write: [201, 409, 404], delete: [404] } as const;

    for (const granted of ['read', 'write', 'delete'] as const) {
      const account = await staffWith(t, [`licenses:${granted}`]);
      for (const action of ['read', 'write', 'delete'] as const) {
        for (const [i, call] of calls[action].entries()) {
          const res = await call(account.token);
          if (action === granted) {
            expect(res.status, `${granted} -> ${action}#${i}`).toBe(allowedStatus[action][i]);
          } else {
            expect(res.status, `${granted} -> ${action}#${i}`).toBe(403);
            expect(res.json).toEqual({ error: `Missing permission: licenses:${action}` });
          }
        }
      }
    }
  });
});
