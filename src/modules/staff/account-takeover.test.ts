// No token takes over an account (DECISIONS.md, "Privilege boundaries"): password,
// second-factor and token-minting routes refuse API tokens, the Master Admin's password is
// not set through PUT /staff/{id}/password, and every check of a signed-in account's
// current password counts toward the login limit (per client IP and per account).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { staffWith, uniq } from '../../../test/helpers/fixtures.js';
import { ADMIN, DIALECTS, startTestApp, type TestApp } from '../../../test/helpers/test-app.js';

const API_TOKEN_REFUSED = { error: 'API tokens cannot manage accounts or tokens; sign in with a password' };

describe.each(DIALECTS)('account takeover guards (%s)', (dialect) => {
  let t: TestApp;
  let masterId: string;
  let masterToken: string;
  beforeAll(async () => {
    t = await startTestApp(dialect);
    masterId = ((await t.admin('GET', '/staff')).json as { id: string; isMasterAdmin: boolean }[]).find((s) => s.isMasterAdmin)!.id;
    const made = await t.admin('POST', '/api-tokens', { body: { name: uniq('all'), permissions: ['*'], expiresAtEpochMillis: null } });
    masterToken = made.json.token;
  });
  afterAll(() => t.close());

  const signIn = (username: string, password: string, localAddress?: string) =>
    t.req('POST', '/auth/login', { body: { username, password }, localAddress });

  it("a Master Admin '*' API token cannot set any password, enrol or remove TOTP, or mint tokens (403, nothing changed)", async () => {
    const victim = await staffWith(t, ['customers:read']);
    const attempts: [string, string, unknown][] = [
      ['PUT', `/staff/${masterId}/password`, { newPassword: 'taken-over-123' }],
      ['PUT', `/staff/${victim.id}/password`, { newPassword: 'taken-over-123' }],
      ['PUT', '/staff/me/password', { currentPassword: ADMIN.password, newPassword: 'taken-over-123' }],
      ['POST', '/staff/me/totp', undefined],
      ['POST', '/staff/me/totp/confirm', { password: ADMIN.password, code: '123456' }],
      ['DELETE', '/staff/me/totp', { password: ADMIN.password }],
      ['POST', '/api-tokens', { name: 'forever', permissions: ['*'], expiresAtEpochMillis: null }],
    ];
    for (const [method, path, body] of attempts) {
      const res = await t.req(method, path, { token: masterToken, body });
      expect(res.status, `${method} ${path}`).toBe(403);
      expect(res.json).toEqual(API_TOKEN_REFUSED);
    }
    // The same token still does what it may: it is a working '*' token.
    expect((await t.req('GET', '/staff', { token: masterToken })).status).toBe(200);
    expect((await signIn(ADMIN.username, ADMIN.password)).status).toBe(200);
    expect((await signIn(victim.username, victim.password)).status).toBe(200);
    expect(((await t.admin('GET', '/api-tokens')).json as unknown[]).length).toBe(1);
    expect((await t.admin('GET', '/staff/me')).json.totpEnabled).toBe(false);
  });

  it("the Master Admin's password is not set through PUT /staff/{id}/password, even by the Master Admin (403); other accounts' are", async () => {
    for (const auth of [{ token: t.adminToken }, { basic: [ADMIN.username, ADMIN.password] as [string, string] }]) {
      const res = await t.req('PUT', `/staff/${masterId}/password`, { ...auth, body: { newPassword: 'another-password-1' } });
      expect(res.status).toBe(403);
      expect(res.json.error).toMatch(/^The Master Admin's password is changed with its current password/);
    }
    expect((await signIn(ADMIN.username, 'another-password-1')).status).toBe(401);
    expect((await signIn(ADMIN.username, ADMIN.password)).status).toBe(200);
    const other = await staffWith(t, []);
    expect((await t.admin('PUT', `/staff/${other.id}/password`, { body: { newPassword: 'set-by-admin-1' } })).status).toBe(204);
    expect((await signIn(other.username, 'set-by-admin-1')).status).toBe(200);
  });

  it('wrong current passwords at password change count toward the login limit: 429 after 10, per account and per IP', async () => {
    const acct = await staffWith(t, []);
    const change = (currentPassword: string, localAddress = '127.0.0.11', token = acct.token) =>
      t.req('PUT', '/staff/me/password', { token, body: { currentPassword, newPassword: 'brand-new-password' }, localAddress });
    for (let i = 0; i < 10; i++) expect((await change(`guess-${i}-wrong`)).status).toBe(403);
    const blocked = await change(acct.password);
    expect(blocked.status).toBe(429);
    expect(blocked.json).toEqual({ error: 'Too many login attempts. Try again later.' });
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
    // Per account: from another IP, still blocked (the correct password included).
    expect((await change(acct.password, '127.0.0.12')).status).toBe(429);
    // Per IP: the same counter as failed logins, so a login from that IP is refused too…
    const bystander = await staffWith(t, []);
    expect((await signIn(bystander.username, bystander.password, '127.0.0.11')).status).toBe(429);
    // …while the bystander elsewhere is unaffected, and the password did not change.
    expect((await signIn(bystander.username, bystander.password, '127.0.0.13')).status).toBe(200);
    expect((await signIn(acct.username, acct.password, '127.0.0.13')).status).toBe(200);
  });

  it('wrong passwords at two-factor removal count the same way: 429 after 10', async () => {
    const acct = await staffWith(t, []);
    const remove = (password: string, localAddress = '127.0.0.21') =>
      t.req('DELETE', '/staff/me/totp', { token: acct.token, body: { password }, localAddress });
    for (let i = 0; i < 10; i++) expect((await remove(`guess-${i}-wrong`)).status).toBe(403);
    expect((await remove(acct.password)).status).toBe(429);
    expect((await remove(acct.password, '127.0.0.22')).status).toBe(429);
    // A correct password before the limit is not a failure: another account is not blocked by it.
    const other = await staffWith(t, []);
    const ok = await t.req('DELETE', '/staff/me/totp', { token: other.token, body: { password: other.password }, localAddress: '127.0.0.23' });
    expect(ok.status).toBe(409); // not enabled: the password itself was accepted
  });
});
