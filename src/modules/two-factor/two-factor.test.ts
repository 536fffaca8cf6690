import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, startTestApp, type TestApp } from '../../../test/helpers/test-app.js';
import { auditEntries, staffWith, type StaffAccount } from '../../../test/helpers/fixtures.js';
import { base32Decode, codeForStep, stepAt } from './totp.js';

/** The code an authenticator shows now, or `offset` steps from now. */
const codeNow = (secret: string, offset = 0) => codeForStep(base32Decode(secret), stepAt(Date.now()) + offset);

describe.each(DIALECTS)('two-factor sign-in (%s)', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(dialect);
  });
  afterAll(() => t.close());

  let ipCounter = 40;
  const nextIp = () => `127.0.0.${(ipCounter += 1)}`;

  /** An account with two-factor enabled; the confirming code used the current step. */
  async function enrolled(): Promise<StaffAccount & { secret: string; recoveryCodes: string[] }> {
    const staff = await staffWith(t, ['customers:read']);
    const start = await t.req('POST', '/staff/me/totp', { token: staff.token });
    expect(start.status).toBe(200);
    const { secret } = start.json;
    const confirm = await t.req('POST', '/staff/me/totp/confirm', { token: staff.token, body: { password: staff.password, code: codeNow(secret) } });
    expect(confirm.status).toBe(200);
    return { ...staff, secret, recoveryCodes: confirm.json.recoveryCodes };
  }

  const login = (staff: StaffAccount, totp?: string, localAddress = nextIp()) =>
    t.req('POST', '/auth/login', { body: { username: staff.username, password: staff.password, ...(totp ? { totp } : {}) }, localAddress });

  it('enrols: a pending secret and otpauth URI, then confirm gives 10 recovery codes once; audited without secrets', async () => {
    const staff = await staffWith(t, ['customers:read']);
    const start = await t.req('POST', '/staff/me/totp', { token: staff.token });
    expect(start.json.secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(start.json.otpauthUri).toContain(`secret=${start.json.secret}`);
    // Pending: sign-in still needs no code.
    expect((await login(staff)).status).toBe(200);
    const wrong = await t.req('POST', '/staff/me/totp/confirm', { token: staff.token, body: { password: staff.password, code: '000000' === codeNow(start.json.secret) ? '111111' : '000000' } });
    expect(wrong.status).toBe(400);
    expect(wrong.json).toEqual({ error: 'Invalid two-factor code' });
    const confirm = await t.req('POST', '/staff/me/totp/confirm', { token: staff.token, body: { password: staff.password, code: codeNow(start.json.secret) } });
    expect(confirm.status).toBe(200);
    const codes: string[] = confirm.json.recoveryCodes;
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    for (const code of codes) expect(code).toMatch(/^[0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4}$/);

    const me = await t.req('GET', '/staff/me', { token: staff.token });
    expect(me.json.totpEnabled).toBe(true);
    expect(me.text).not.toContain(start.json.secret);
    expect((await t.req('POST', '/staff/me/totp', { token: staff.token })).status).toBe(409);

    const audit = (await auditEntries(t, 'staff.totp.enable')).find((e) => JSON.parse(e.data).id === staff.id)!;
    expect(audit.data).not.toContain(start.json.secret);
    for (const code of codes) expect(audit.data).not.toContain(code);
    const stored = await t.app.db.selectFrom('staff_recovery_codes').select('code_hash').where('staff_id', '=', staff.id).execute();
    expect(stored).toHaveLength(10);
    for (const { code_hash } of stored) expect(codes).not.toContain(code_hash);
  });

  it('requires the code at sign-in: missing 401, wrong 401, current 200, the same code again 401 (no replay)', async () => {
    const staff = await enrolled();
    const missing = await login(staff);
    expect(missing.status).toBe(401);
    expect(missing.json).toEqual({ error: 'Two-factor code required' });
    const next = codeNow(staff.secret, 1);
    const wrongCode = next === '123456' ? '654321' : '123456';
    const wrong = await login(staff, wrongCode);
    expect(wrong.status).toBe(401);
    expect(wrong.json).toEqual({ error: 'Invalid two-factor code' });
    // The confirming code used this step; the next step's code (within the ±1 window) is new.
    const ok = await login(staff, next);
    expect(ok.status).toBe(200);
    expect((await t.req('GET', '/customers', { token: ok.json.token })).status).toBe(200);
    const replay = await login(staff, next);
    expect(replay.status).toBe(401);
    expect(replay.json).toEqual({ error: 'Invalid two-factor code' });
  });

  it('accepts a recovery code once (any case, with or without dashes)', async () => {
    const staff = await enrolled();
    const code = staff.recoveryCodes[3]!;
    const first = await login(staff, code.toLowerCase().replaceAll('-', ''));
    expect(first.status).toBe(200);
    const again = await login(staff, code);
    expect(again.status).toBe(401);
    expect(again.json).toEqual({ error: 'Invalid two-factor code' });
    expect((await login(staff, staff.recoveryCodes[4]!)).status).toBe(200);
  });

  it('counts wrong codes toward the brute-force limit of the IP (429 after 10)', async () => {
    const staff = await enrolled();
    const ip = '127.0.0.90';
    const bad = codeNow(staff.secret, 1) === '000000' ? '999999' : '000000';
    for (let i = 0; i < 10; i += 1) expect((await login(staff, bad, ip)).status).toBe(401);
    const blocked = await login(staff, codeNow(staff.secret, 1), ip);
    expect(blocked.status).toBe(429);
  });

  it('refuses Basic credentials for a two-factor account (401 naming API tokens), while its API token works', async () => {
    const staff = await enrolled();
    const basic = await t.req('GET', '/customers', { basic: [staff.username, staff.password] });
    expect(basic.status).toBe(401);
    expect(basic.json.error).toContain('API token');
    const created = await t.req('POST', '/api-tokens', {
      token: staff.token,
      body: { name: 'script', permissions: ['customers:read'], expiresAtEpochMillis: null },
    });
    expect((await t.req('GET', '/customers', { token: created.json.token })).status).toBe(200);
  });

  it('disables with the password (wrong password 403), audited; sign-in then needs no code', async () => {
    const staff = await enrolled();
    const wrong = await t.req('DELETE', '/staff/me/totp', { token: staff.token, body: { password: 'not-the-password' } });
    expect(wrong.status).toBe(403);
    expect((await login(staff)).status).toBe(401);
    const res = await t.req('DELETE', '/staff/me/totp', { token: staff.token, body: { password: staff.password } });
    expect(res.status).toBe(204);
    expect((await login(staff)).status).toBe(200);
    expect((await t.req('GET', '/staff/me', { token: staff.token })).json.totpEnabled).toBe(false);
    const audit = (await auditEntries(t, 'staff.totp.disable')).find((e) => JSON.parse(e.data).id === staff.id)!;
    expect(audit.performedBy).toBe(staff.username);
    expect(await t.app.db.selectFrom('staff_recovery_codes').selectAll().where('staff_id', '=', staff.id).execute()).toEqual([]);
    expect((await t.req('DELETE', '/staff/me/totp', { token: staff.token, body: { password: staff.password } })).status).toBe(409);
  });

  it('turns on only with the current password: missing 400, wrong 403 (still off), right 200', async () => {
    const staff = await staffWith(t, ['customers:read']);
    const { secret } = (await t.req('POST', '/staff/me/totp', { token: staff.token })).json;
    const confirm = (body: Record<string, string>) => t.req('POST', '/staff/me/totp/confirm', { token: staff.token, body, localAddress: nextIp() });
    const missing = await confirm({ code: codeNow(secret) });
    expect(missing.status).toBe(400);
    expect(missing.json.error).toContain('password');
    const wrong = await confirm({ password: 'not-the-password', code: codeNow(secret) });
    expect(wrong.status).toBe(403);
    expect(wrong.json).toEqual({ error: 'Wrong password' });
    expect((await t.req('GET', '/staff/me', { token: staff.token })).json.totpEnabled).toBe(false);
    expect((await login(staff)).status).toBe(200); // sign-in still needs no code
    const right = await confirm({ password: staff.password, code: codeNow(secret) });
    expect(right.status).toBe(200);
    expect((await t.req('GET', '/staff/me', { token: staff.token })).json.totpEnabled).toBe(true);
  });

  it('refuses confirm without enrolment (409) and a code-less body (400)', async () => {
    const staff = await staffWith(t, ['customers:read']);
    expect((await t.req('POST', '/staff/me/totp/confirm', { token: staff.token, body: { password: staff.password, code: '123456' } })).status).toBe(409);
    const noBody = await t.req('POST', '/staff/me/totp/confirm', { token: staff.token, body: {} });
    expect(noBody.status).toBe(400);
    expect(noBody.json.error).toContain('code');
  });
});
