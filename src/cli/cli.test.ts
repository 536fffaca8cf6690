// The operator commands, run as the built CLI (dist/cli.js, `npm run build` first) against
// the database of a running service.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, createTestDatabase, DIALECTS, startTestApp, type TestApp } from '../../test/helpers/test-app.js';
import { auditEntries, staffWith } from '../../test/helpers/fixtures.js';
import { base32Decode, codeForStep, stepAt } from '../modules/two-factor/totp.js';

const run = promisify(execFile);

async function cli(databaseUrl: string, ...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, ['dist/cli.js', ...args], {
      env: { ...process.env, DATABASE_URL: databaseUrl, LOG_LEVEL: 'silent' },
    });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

describe.each(DIALECTS)('operator CLI (%s)', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(dialect);
  });
  afterAll(() => t.close());

  it('reset-password prints a new password that signs in on the running service; old tokens end', async () => {
    const staff = await staffWith(t, ['customers:read']);
    const res = await cli(t.database.url, 'reset-password', staff.username);
    expect(res.code).toBe(0);
    const password = /New password for "[^"]+": (\S+)/.exec(res.stdout)?.[1];
    expect(password).toBeDefined();
    expect(password!.length).toBeGreaterThanOrEqual(16);
    expect((await t.req('GET', '/customers', { token: staff.token })).status).toBe(401);
    expect((await t.req('POST', '/auth/login', { body: { username: staff.username, password } })).status).toBe(200);
    expect((await t.req('POST', '/auth/login', { body: { username: staff.username, password: staff.password } })).status).toBe(401);
    const audit = (await auditEntries(t, 'staff.setPassword')).find((e) => JSON.parse(e.data).id === staff.id)!;
    expect(audit.performedBy).toBe('cli');
    expect(audit.data).not.toContain(password);
  });

  it('reset-password --disable-two-factor also removes a lost second factor (TOTP and recovery codes), audited', async () => {
    const staff = await staffWith(t, ['customers:read']);
    const { secret } = (await t.req('POST', '/staff/me/totp', { token: staff.token })).json;
    const code = codeForStep(base32Decode(secret), stepAt(Date.now()));
    expect((await t.req('POST', '/staff/me/totp/confirm', { token: staff.token, body: { password: staff.password, code } })).status).toBe(200);

    // Without the flag the second factor stays: the new password alone does not sign in.
    const plain = await cli(t.database.url, 'reset-password', staff.username);
    const first = /New password for "[^"]+": (\S+)/.exec(plain.stdout)![1]!;
    const withoutCode = await t.req('POST', '/auth/login', { body: { username: staff.username, password: first } });
    expect(withoutCode.json).toEqual({ error: 'Two-factor code required' });

    const res = await cli(t.database.url, 'reset-password', staff.username, '--disable-two-factor');
    expect(res.code).toBe(0);
    expect(res.stdout).toContain('Two-factor sign-in is off');
    const password = /New password for "[^"]+": (\S+)/.exec(res.stdout)![1]!;
    const login = await t.req('POST', '/auth/login', { body: { username: staff.username, password } });
    expect(login.status).toBe(200);
    expect((await t.req('GET', '/staff/me', { token: login.json.token })).json.totpEnabled).toBe(false);
    expect(await t.app.db.selectFrom('staff_recovery_codes').selectAll().where('staff_id', '=', staff.id).execute()).toEqual([]);
    const audit = (await auditEntries(t, 'staff.totp.disable')).find((e) => JSON.parse(e.data).id === staff.id)!;
    expect(audit.performedBy).toBe('cli');
    // The flag alone names no account.
    expect((await cli(t.database.url, 'reset-password', '--disable-two-factor')).code).toBe(2);
  });

  it('reset-password also recovers the Master Admin', async () => {
    const res = await cli(t.database.url, 'reset-password', ADMIN.username);
    const password = /: (\S+)\n/.exec(res.stdout)![1]!;
    const login = await t.req('POST', '/auth/login', { body: { username: ADMIN.username, password } });
    expect(login.status).toBe(200);
    expect(login.json.user.isMasterAdmin).toBe(true);
    // Put it back for the other tests.
    await t.req('PUT', '/staff/me/password', { token: login.json.token, body: { currentPassword: password, newPassword: ADMIN.password } });
  });

  it('reset-password of an unknown user fails (exit 1) and names the problem; no user: usage (exit 2)', async () => {
    const unknown = await cli(t.database.url, 'reset-password', 'nobody-here');
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('Staff account not found');
    const usage = await cli(t.database.url, 'reset-password');
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain('reset-password <username> [--disable-two-factor]');
  });

  it('create-admin refuses when a Master Admin exists', async () => {
    const res = await cli(t.database.url, 'create-admin', 'second-admin');
    expect(res.code).toBe(1);
    expect(res.stderr).toContain('A Master Admin already exists');
  });

  it('create-admin creates a Master Admin on an empty database, whose printed password signs in', async () => {
    const database = await createTestDatabase(dialect);
    try {
      const res = await cli(database.url, 'create-admin', 'operator');
      expect(res.code).toBe(0);
      const password = /password: (\S+)/.exec(res.stdout)![1]!;
      const app = await startTestApp(dialect, {}, database);
      try {
        const login = await app.req('POST', '/auth/login', { body: { username: 'operator', password } });
        expect(login.status).toBe(200);
        expect(login.json.user).toMatchObject({ username: 'operator', isMasterAdmin: true });
      } finally {
        await app.close();
      }
    } finally {
      await database.drop();
    }
  });
});
