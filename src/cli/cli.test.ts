// The operator commands, run as the built CLI (dist/cli.js, `npm run build` first) against
// the database of a running service.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, createTestDatabase, DIALECTS, startTestApp, type TestApp } from '../../test/helpers/test-app.js';
import { auditEntries, staffWith } from '../../test/helpers/fixtures.js';

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
    expect(usage.stderr).toContain('reset-password <username>');
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
