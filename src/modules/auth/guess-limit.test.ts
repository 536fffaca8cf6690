// Guess limits hold under concurrency (DECISIONS.md, "Safe by default"): a login, a
// second-factor code or a current password takes its place in the limit before it is
// checked, so 60 guesses fired at once get exactly the limit's remainder evaluated (401 or
// 403) and the rest 429, with counters in memory and in Redis, on both databases.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { staffWith, type StaffAccount } from '../../../test/helpers/fixtures.js';
import type { TestResponse } from '../../../test/helpers/http.js';
import { deleteRedisKeys, randomRedisPrefix, RATE_LIMIT_STORES, TEST_REDIS_URL } from '../../../test/helpers/redis.js';
import { ADMIN, DIALECTS, startTestApp, type TestApp } from '../../../test/helpers/test-app.js';
import { base32Decode, codeForStep, stepAt } from '../two-factor/totp.js';

const LIMIT = 10;
const PARALLEL = 60;

const statusCounts = (responses: TestResponse[]) =>
  responses.reduce<Record<number, number>>((counts, res) => ({ ...counts, [res.status]: (counts[res.status] ?? 0) + 1 }), {});

const inParallel = (send: (i: number) => Promise<TestResponse>) => Promise.all(Array.from({ length: PARALLEL }, (_, i) => send(i)));

const SETUPS = DIALECTS.flatMap((dialect) => RATE_LIMIT_STORES.map((store) => [dialect, store] as const));

describe.each(SETUPS)('guess limits under concurrency (%s, %s counters)', (dialect, store) => {
  let t: TestApp;
  const prefix = randomRedisPrefix();
  beforeAll(async () => {
    t = await startTestApp(dialect, store === 'redis' ? { REDIS_URL: TEST_REDIS_URL, REDIS_KEY_PREFIX: prefix } : {});
  });
  afterAll(async () => {
    await t?.close();
    if (store === 'redis') await deleteRedisKeys(prefix);
  });

  /** A code that no authenticator shows now (the accepted window is ±1 step). */
  const wrongCode = (secret: string, i: number) => {
    const key = base32Decode(secret);
    const step = stepAt(Date.now());
    const valid = new Set([-1, 0, 1, 2].map((offset) => codeForStep(key, step + offset)));
    for (let n = i; ; n += PARALLEL) {
      const code = String(100000 + ((n * 7919) % 900000));
      if (!valid.has(code)) return code;
    }
  };

  async function withTwoFactor(): Promise<StaffAccount & { secret: string }> {
    const staff = await staffWith(t, []);
    const { secret } = (await t.req('POST', '/staff/me/totp', { token: staff.token })).json;
    const code = codeForStep(base32Decode(secret), stepAt(Date.now()));
    const confirm = await t.req('POST', '/staff/me/totp/confirm', { token: staff.token, body: { password: staff.password, code }, localAddress: '127.0.0.99' });
    expect(confirm.status).toBe(200);
    return { ...staff, secret };
  }

  it('logins: of 60 parallel wrong passwords only the remainder of the limit is evaluated (401), the rest 429', async () => {
    const ip = '127.0.0.101';
    const login = (password: string) => t.req('POST', '/auth/login', { body: { username: ADMIN.username, password }, localAddress: ip });
    for (let i = 0; i < 4; i++) expect((await login(`early-wrong-${i}`)).status).toBe(401);
    const counts = statusCounts(await inParallel((i) => login(`wrong-${i}`)));
    expect(counts).toEqual({ 401: LIMIT - 4, 429: PARALLEL - (LIMIT - 4) });
    expect((await login(ADMIN.password)).status).toBe(429);
  });

  it('Basic credentials: 60 parallel wrong passwords, 10 evaluated (401), the rest 429', async () => {
    const ip = '127.0.0.102';
    const counts = statusCounts(await inParallel((i) => t.req('GET', '/roles', { basic: [ADMIN.username, `wrong-${i}`], localAddress: ip })));
    expect(counts).toEqual({ 401: LIMIT, 429: PARALLEL - LIMIT });
  });

  it('second-factor codes at login: 60 parallel wrong codes with the right password, 10 evaluated (401), the rest 429', async () => {
    const staff = await withTwoFactor();
    const ip = '127.0.0.103';
    const responses = await inParallel((i) =>
      t.req('POST', '/auth/login', { body: { username: staff.username, password: staff.password, totp: wrongCode(staff.secret, i) }, localAddress: ip }),
    );
    expect(statusCounts(responses)).toEqual({ 401: LIMIT, 429: PARALLEL - LIMIT });
    for (const res of responses.filter((r) => r.status === 401)) expect(res.json).toEqual({ error: 'Invalid two-factor code' });
  });

  it('current password at password change: 60 parallel wrong, 10 evaluated (403), the rest 429; the account stays blocked from another IP', async () => {
    const staff = await staffWith(t, []);
    const change = (currentPassword: string, localAddress: string) =>
      t.req('PUT', '/staff/me/password', { token: staff.token, body: { currentPassword, newPassword: 'brand-new-password' }, localAddress });
    const counts = statusCounts(await inParallel((i) => change(`wrong-${i}`, '127.0.0.104')));
    expect(counts).toEqual({ 403: LIMIT, 429: PARALLEL - LIMIT });
    expect((await change(staff.password, '127.0.0.105')).status).toBe(429);
  });

  it('current password at two-factor removal: 60 parallel wrong, 10 evaluated (403), the rest 429', async () => {
    const staff = await withTwoFactor();
    const counts = statusCounts(
      await inParallel((i) => t.req('DELETE', '/staff/me/totp', { token: staff.token, body: { password: `wrong-${i}` }, localAddress: '127.0.0.106' })),
    );
    expect(counts).toEqual({ 403: LIMIT, 429: PARALLEL - LIMIT });
    expect((await t.req('GET', '/staff/me', { token: staff.token })).json.totpEnabled).toBe(true);
  });

  it('current password at two-factor enrolment: 60 parallel wrong, 10 evaluated (403), the rest 429; still off', async () => {
    const staff = await staffWith(t, []);
    const { secret } = (await t.req('POST', '/staff/me/totp', { token: staff.token })).json;
    const code = codeForStep(base32Decode(secret), stepAt(Date.now()));
    const counts = statusCounts(
      await inParallel((i) =>
        t.req('POST', '/staff/me/totp/confirm', { token: staff.token, body: { password: `wrong-${i}`, code }, localAddress: '127.0.0.107' }),
      ),
    );
    expect(counts).toEqual({ 403: LIMIT, 429: PARALLEL - LIMIT });
    expect((await t.req('GET', '/staff/me', { token: staff.token })).json.totpEnabled).toBe(false);
  });

  it('a right guess gives its place back: after 9 wrong, a right login, then one more wrong is still evaluated', async () => {
    const ip = '127.0.0.108';
    const login = (password: string) => t.req('POST', '/auth/login', { body: { username: ADMIN.username, password }, localAddress: ip });
    for (let i = 0; i < LIMIT - 1; i++) expect((await login(`wrong-${i}`)).status).toBe(401);
    expect((await login(ADMIN.password)).status).toBe(200);
    expect((await login(ADMIN.password)).status).toBe(200);
    expect((await login('wrong-last')).status).toBe(401);
    expect((await login(ADMIN.password)).status).toBe(429);
  });
});
