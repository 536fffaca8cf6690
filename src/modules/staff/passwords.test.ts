import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, startTestApp, type TestApp } from '../../../test/helpers/test-app.js';
import { auditEntries, staffWith } from '../../../test/helpers/fixtures.js';

describe.each(DIALECTS)('passwords and sign-out (%s)', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(dialect);
  });
  afterAll(() => t.close());

  const login = (username: string, password: string) => t.req('POST', '/auth/login', { body: { username, password } });

  it('changes the own password: old login tokens end, a sign-in right after works, old password refused', async () => {
    const staff = await staffWith(t, ['customers:read']);
    const second = (await login(staff.username, staff.password)).json.token;
    const res = await t.req('PUT', '/staff/me/password', {
      token: staff.token,
      body: { currentPassword: staff.password, newPassword: 'brand-new-password' },
    });
    expect(res.status).toBe(204);
    for (const token of [staff.token, second]) {
      expect((await t.req('GET', '/customers', { token })).status).toBe(401);
    }
    // Within the same second as the change: the new token must work (iat rule in tokens.ts).
    const fresh = await login(staff.username, 'brand-new-password');
    expect(fresh.status).toBe(200);
    expect((await t.req('GET', '/customers', { token: fresh.json.token })).status).toBe(200);
    expect((await login(staff.username, staff.password)).status).toBe(401);
    const audit = (await auditEntries(t, 'staff.changePassword')).find((e) => JSON.parse(e.data).id === staff.id)!;
    expect(JSON.parse(audit.data)).toEqual({ id: staff.id, username: staff.username });
  });

  it('refuses a wrong current password (403) and a short new one (400), changing nothing', async () => {
    const staff = await staffWith(t, ['customers:read']);
    const wrong = await t.req('PUT', '/staff/me/password', { token: staff.token, body: { currentPassword: 'not-it-at-all', newPassword: 'brand-new-password' } });
    expect(wrong.status).toBe(403);
    expect(wrong.json).toEqual({ error: 'Current password is wrong' });
    const short = await t.req('PUT', '/staff/me/password', { token: staff.token, body: { currentPassword: staff.password, newPassword: 'short' } });
    expect(short.status).toBe(400);
    expect(short.json.error).toContain('newPassword');
    const missing = await t.req('PUT', '/staff/me/password', { token: staff.token, body: { newPassword: 'brand-new-password' } });
    expect(missing.status).toBe(400);
    expect(missing.json.error).toContain('currentPassword');
    expect((await t.req('GET', '/customers', { token: staff.token })).status).toBe(200);
    expect((await login(staff.username, staff.password)).status).toBe(200);
  });

  it("lets the Master Admin set another account's password (ends its tokens, audited without the password)", async () => {
    const staff = await staffWith(t, ['customers:read']);
    const res = await t.admin('PUT', `/staff/${staff.id}/password`, { body: { newPassword: 'set-by-the-admin' } });
    expect(res.status).toBe(204);
    expect((await t.req('GET', '/customers', { token: staff.token })).status).toBe(401);
    expect((await login(staff.username, 'set-by-the-admin')).status).toBe(200);
    const audit = (await auditEntries(t, 'staff.setPassword')).find((e) => JSON.parse(e.data).id === staff.id)!;
    expect(audit.performedBy).toBe('root');
    expect(audit.data).not.toContain('set-by-the-admin');
    expect(audit.data).not.toContain('argon2');
  });

  it('answers set-password with 403 for non-Master-Admins, 400 for a short password, 404 for an unknown id', async () => {
    const manager = await staffWith(t, ['staff:manage', 'staff:read']);
    const target = await staffWith(t, ['customers:read']);
    const denied = await t.req('PUT', `/staff/${target.id}/password`, { token: manager.token, body: { newPassword: 'set-by-the-admin' } });
    expect(denied.status).toBe(403);
    expect(denied.json).toEqual({ error: 'Master Admin only' });
    expect((await t.admin('PUT', `/staff/${target.id}/password`, { body: { newPassword: 'short' } })).status).toBe(400);
    const unknown = await t.admin('PUT', '/staff/no-such-id/password', { body: { newPassword: 'long-enough-pw' } });
    expect(unknown.status).toBe(404);
    expect((await t.req('GET', '/customers', { token: target.token })).status).toBe(200);
  });

  it('signs out: the token stops working here and on a second instance; the account\'s other tokens keep working', async () => {
    const second = await startTestApp(dialect, {}, t.database);
    try {
      const staff = await staffWith(t, ['customers:read']);
      const other = (await login(staff.username, staff.password)).json.token;
      expect((await second.req('GET', '/customers', { token: staff.token })).status).toBe(200);
      expect((await t.req('POST', '/auth/logout', { token: staff.token })).status).toBe(204);
      expect((await second.req('GET', '/customers', { token: staff.token })).status).toBe(401);
      expect((await t.req('GET', '/customers', { token: staff.token })).status).toBe(401);
      expect((await t.req('POST', '/auth/logout', { token: staff.token })).status).toBe(401);
      expect((await second.req('GET', '/customers', { token: other })).status).toBe(200);
    } finally {
      await second.close();
    }
  });

  it('keeps the revocation until the token would expire, and prunes rows of expired tokens', async () => {
    const staff = await staffWith(t, ['customers:read']);
    await t.app.db.insertInto('revoked_tokens').values({ jti: 'long-expired', expires_at: Date.now() - 1000 }).execute();
    await t.req('POST', '/auth/logout', { token: staff.token });
    const rows = await t.app.db.selectFrom('revoked_tokens').selectAll().execute();
    expect(rows.map((r) => r.jti)).not.toContain('long-expired');
    const mine = rows.find((r) => r.expires_at > Date.now() + 6 * 24 * 3600 * 1000);
    expect(mine).toBeDefined();
  });

  it('refuses sign-out with Basic credentials (400: there is no login token to end)', async () => {
    const staff = await staffWith(t, ['customers:read']);
    const res = await t.req('POST', '/auth/logout', { basic: [staff.username, staff.password] });
    expect(res.status).toBe(400);
    expect(res.json.error).toContain('login token');
  });
});
