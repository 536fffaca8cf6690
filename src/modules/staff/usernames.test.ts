// Usernames that cannot impersonate each other (DECISIONS.md, "Privilege boundaries" and
// "Safe by default"): unique after NFKC and case folding and by UTS #39 skeleton (409);
// only characters of the General Security Profile, no invisible characters, stray
// combining marks or mixed look-alike scripts (400 naming username). A database that
// already holds clashing accounts keeps signing them in after the migrations, and
// `npm run cli -- doctor` reports them.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDb } from '../../db/database.js';
import { hashPassword } from '../../lib/secrets.js';
import { generateKey } from '../../../test/helpers/fixtures.js';
import { migrateTo } from '../../../test/helpers/migrations.js';
import { createTestDatabase, DIALECTS, startTestApp, type TestApp, type TestDatabase } from '../../../test/helpers/test-app.js';
import { isAllowedInIdentifier, usernameKey, usernameProblem, usernameSkeleton } from './usernames.js';

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
  it.each(['boss', 'jane.doe-2', 'Åsa', 'A\u030asa', 'вова', 'αλφα', '山田', 'josé', 'नमस्ते', 'สวัสดี', "o'brien"])('%j is fine', (name) =>
    expect(usernameProblem(name)).toBeNull(),
  );

  it.each([
    ['\u1d00dmin', 'U+1D00'], // small capital A
    ['\u2800admin', 'U+2800'], // Braille blank
    ['ｂｏｓｓ', 'U+FF42'], // fullwidth: not NFKC-stable
    ['boss@example.com', 'U+0040'],
    ['\u0301admin', 'U+0301'], // a mark with nothing under it
    ['a\u0301\u0301dmin', 'U+0301'], // the same mark twice
    ['a\u0335dmin', 'U+0335'], // an overlay that composes with no letter
    ['e\u0300\u0301\u0302\u0303\u0304x', 'U+0304'], // five marks in a row
    ['boss-\u0301', 'U+0301'], // a mark on punctuation
  ])('%j is refused, naming %s', (name, codePoint) => {
    expect(usernameProblem(name)).toMatch(/^username /);
    expect(usernameProblem(name)).toContain(codePoint);
  });

  it("takes Identifier_Status from Unicode's data", () => {
    for (const c of ['a', 'Z', '0', '_', '-', '.', 'é', 'ж', '山']) expect(isAllowedInIdentifier(c.codePointAt(0)!), c).toBe(true);
    for (const c of [0x20, 0x40, 0x1d00, 0x2800, 0xff42, 0x200b, 0x1f600, 0xe000]) expect(isAllowedInIdentifier(c), c.toString(16)).toBe(false);
  });

  it.each([
    ['рорѕ', 'pops'], // Cyrillic
    ['ΑΒΕ', 'ABE'], // Greek
    ['Il', 'll'], // before case folding: capital I looks like small L
    ['rn', 'm'],
  ])('%s looks like %s (same skeleton)', (a, b) => expect(usernameSkeleton(a)).toBe(usernameSkeleton(b)));

  it('keeps apart what does not look alike', () => {
    expect(usernameSkeleton('boss')).not.toBe(usernameSkeleton('bass'));
    expect(usernameSkeleton('ABE')).not.toBe(usernameSkeleton('abe')); // case is the key's business
  });
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
    for (const clash of ['boss', 'BOSS', 'Boss']) {
      const res = await again(clash);
      expect(res.status, clash).toBe(409);
      expect(res.json).toEqual({ error: 'Username already taken' });
    }
    for (const invisible of ['boss\u200b', 'bo ss', '\u202Eboss', 'boss\n', 'bоss', 'ｂｏｓｓ', 'ＢＯＳＳ']) {
      const res = await again(invisible);
      expect(res.status, JSON.stringify(invisible)).toBe(400);
      expect(res.json.error).toMatch(/^username /);
    }
    const staff = (await t.admin('GET', '/staff')).json as { username: string }[];
    expect(staff.filter((s) => usernameKey(s.username) === 'boss').map((s) => s.username)).toEqual(['boss']);
    // The key survived every refusal.
    expect((await again('boss2')).status).toBe(201);
  });

  const registerWith = async (username: string) =>
    t.req('POST', '/staff/register', {
      body: { registrationKey: await generateKey(t), username, email: 'x@example.com', password: 'long-enough-pw', roleIds: [] },
    });

  it('refuses a look-alike of an existing name (same UTS #39 skeleton) with 409, and refused characters with 400', async () => {
    for (const name of ['pops', 'ABE', 'admin']) expect((await registerWith(name)).status, name).toBe(201);
    for (const lookalike of ['рорѕ', 'ΑΒΕ']) {
      const res = await registerWith(lookalike);
      expect(res.status, lookalike).toBe(409);
      expect(res.json).toEqual({ error: 'Username already taken' });
    }
    for (const refused of ['\u1d00dmin', '\u2800admin', 'a\u0335dmin', '\u0301admin']) {
      const res = await registerWith(refused);
      expect(res.status, JSON.stringify(refused)).toBe(400);
      expect(res.json.error).toMatch(/^username /);
    }
    expect((await registerWith('abes')).status).toBe(201);
  });

  it('lets only one of look-alike names registered at the same moment in (the unique index decides)', async () => {
    const latin = 'pope';
    const cyrillic = '\u0440\u043e\u0440\u0435'; // роре
    expect(usernameSkeleton(cyrillic)).toBe(usernameSkeleton(latin));
    const keys = await Promise.all([1, 2, 3, 4].map(() => generateKey(t)));
    const responses = await Promise.all(
      [latin, cyrillic, latin, cyrillic].map((username, i) =>
        t.req('POST', '/staff/register', { body: { registrationKey: keys[i], username, email: 'x@example.com', password: 'long-enough-pw', roleIds: [] } }),
      ),
    );
    expect(responses.map((r) => r.status).sort()).toEqual([201, 409, 409, 409]);
  });
});

describe.each(DIALECTS)('a database that already holds clashing usernames (%s)', (dialect) => {
  let database: TestDatabase;
  let t: TestApp;
  const names = ['boss', 'BOSS', 'boss\u200b', 'bоss', 'pops', 'рорѕ'];

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
    expect(report.stdout).toMatch(/usernames that look alike \(the same UTS #39 skeleton\): "boss" \(id [^)]+\), "bоss"/);
    expect(report.stdout).toMatch(/usernames that look alike \(the same UTS #39 skeleton\): "pops" \(id [^)]+\), "рорѕ"/);
    expect(report.stderr).toContain('doctor: 5 problem(s) found');
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
