// Usernames that cannot impersonate each other (DECISIONS.md, "Privilege boundaries"):
// unique after NFKC and case folding (409), no invisible characters or mixed look-alike
// scripts (400 naming username). A database that already holds clashing accounts keeps
// signing them in after the migration, and `npm run cli -- doctor` reports them.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDb } from '../../db/database.js';
import { hashPassword } from '../../lib/secrets.js';
import { generateKey } from '../../../test/helpers/fixtures.js';
import { migrateTo } from '../../../test/helpers/migrations.js';
import { createTestDatabase, DIALECTS, startTestApp, type TestApp, type TestDatabase } from '../../../test/helpers/test-app.js';
import { usernameKey, usernameProblem } from './usernames.js';

const run = promisify(execFile);
async function doctor(databaseUrl: string): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, ['dist/cli.js', 'doctor'], { env: { ...process.env, DATABASE_URL: databaseUrl, LOG_LEVEL: 'silent' } });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

describe('username keys and problems', () => {
  it.each([
    ['BOSS', 'boss'],
    ['ｂｏｓｓ', 'boss'], // fullwidth
    ['Straße', 'strasse'],
    ['ǅ', 'dž'],
    ['\u212Aelvin', 'kelvin'], // Kelvin sign
  ])('%s folds to %s', (name, key) => expect(usernameKey(name)).toBe(key));

  it.each(['boss\u200b', 'bo ss', 'boss\t', '\u202Eboss', 'bo\u00A0ss', 'boss\u2028', 'bo\u00ADss', 'b\u3164oss', 'bоss', 'Ηello'])(
    '%j is refused',
    (name) => expect(usernameProblem(name)).toMatch(/^username /),
  );
  it.each(['boss', 'jane.doe-2', 'Åsa', 'вова', 'αλφα', '山田', 'josé'])('%j is fine', (name) => expect(usernameProblem(name)).toBeNull());
});

describe.each(DIALECTS)('registration usernames (%s)', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(dialect);
  });
  afterAll(() => t.close());

  it('refuses look-alikes of a taken name with 409 and invisible or mixed-script names with 400, consuming nothing', async () => {
    const key = await generateKey(t);
    const register = (username: string) =>
      t.req('POST', '/staff/register', { body: { registrationKey: key, username, email: 'x@example.com', password: 'long-enough-pw', roleIds: [] } });
    expect((await register('boss')).status).toBe(201);

    const second = await generateKey(t);
    const again = (username: string) =>
      t.req('POST', '/staff/register', { body: { registrationKey: second, username, email: 'x@example.com', password: 'long-enough-pw', roleIds: [] } });
    for (const clash of ['boss', 'BOSS', 'Boss', 'ｂｏｓｓ', 'ＢＯＳＳ']) {
      const res = await again(clash);
      expect(res.status, clash).toBe(409);
      expect(res.json).toEqual({ error: 'Username already taken' });
    }
    for (const invisible of ['boss\u200b', 'bo ss', '\u202Eboss', 'boss\n', 'bоss']) {
      const res = await again(invisible);
      expect(res.status, JSON.stringify(invisible)).toBe(400);
      expect(res.json.error).toMatch(/^username /);
    }
    const staff = (await t.admin('GET', '/staff')).json as { username: string }[];
    expect(staff.filter((s) => usernameKey(s.username) === 'boss').map((s) => s.username)).toEqual(['boss']);
    // The key survived every refusal.
    expect((await again('boss2')).status).toBe(201);
  });
});

describe.each(DIALECTS)('a database that already holds clashing usernames (%s)', (dialect) => {
  let database: TestDatabase;
  let t: TestApp;
  const names = ['boss', 'BOSS', 'boss\u200b', 'bоss'];

  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    const { db } = createDb(database.url);
    try {
      await migrateTo(db, '2026_11_28_0080_webhook_secret_overlap');
      const passwordHash = await hashPassword('legacy-password');
      let at = Date.now() - 10_000;
      for (const username of names) {
        await db
          .insertInto('staff')
          .values({ id: `legacy-${at}`, username, email: 'l@example.com', password_hash: passwordHash, active: 1, is_master_admin: 0, created_at: at++ })
          .execute();
      }
    } finally {
      await db.destroy();
    }
    t = await startTestApp(dialect, {}, database); // migrates to the latest
  }, 120_000);
  afterAll(async () => {
    await t?.close();
    await database?.drop();
  });

  it('keeps signing every one of them in, still refuses a new look-alike, and doctor reports them (exit 1)', async () => {
    for (const username of names) {
      const login = await t.req('POST', '/auth/login', { body: { username, password: 'legacy-password' } });
      expect(login.status, JSON.stringify(username)).toBe(200);
      expect(login.json.user.username).toBe(username);
    }
    const key = await generateKey(t);
    const res = await t.req('POST', '/staff/register', {
      body: { registrationKey: key, username: 'Boss', email: 'x@example.com', password: 'long-enough-pw', roleIds: [] },
    });
    expect(res.status).toBe(409);

    const report = await doctor(database.url);
    expect(report.code).toBe(1);
    expect(report.stdout).toContain('usernames that are the same after NFKC and case folding: "boss"');
    expect(report.stdout).toContain('"BOSS"');
    expect(report.stdout).toContain('"boss\\u200b"');
    expect(report.stdout).toContain('"bоss"');
    expect(report.stderr).toContain('doctor: 3 problem(s) found');
  }, 120_000);

  it('doctor finds nothing in a clean database (exit 0)', async () => {
    const clean = await createTestDatabase(dialect);
    const app = await startTestApp(dialect, {}, clean);
    try {
      const report = await doctor(clean.url);
      expect(report.code).toBe(0);
      expect(report.stdout).toContain('doctor: no problems found');
    } finally {
      await app.close();
      await clean.drop();
    }
  }, 120_000);
});
