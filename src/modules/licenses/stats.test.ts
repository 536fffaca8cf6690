import { CompiledQuery } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { staffWith, newLicense, putBody, readLicense, validate } from '../../../test/helpers/fixtures.js';
import { DIALECTS, startTestApp, type TestApp } from '../../../test/helpers/test-app.js';
import { attemptsByHourQuery, countedHoursQuery } from './stats.repository.js';
import { getLicenseStats } from './stats.service.js';
import { until } from '../../../test/helpers/until.js';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const hourOf = (epochMillis: number) => Math.floor(epochMillis / HOUR) * HOUR;

/** Writes attempts with chosen timestamps straight to the database (validation only records "now"). */
async function insertAttempts(t: TestApp, licenseId: string, attempts: [timestamp: number, successful: boolean][]) {
  await t.app.db
    .insertInto('validation_attempts')
    .values(
      attempts.map(([timestamp, successful]) => ({
        license_id: licenseId, hwid: 'HW', ip: '10.0.0.1', timestamp, successful: successful ? 1 : 0,
        reason: successful ? 'VALID' : 'HWID_LIMIT_REACHED',
      })),
    )
    .execute();
}

describe.each(DIALECTS)('license stats (%s)', (dialect) => {
  // Each counting test gets its own database, so every figure is exact.
  const apps: TestApp[] = [];
  const freshApp = async (env: Record<string, string> = {}) => {
    const t = await startTestApp(dialect, env);
    apps.push(t);
    return t;
  };
  afterAll(() => Promise.all(apps.map((t) => t.close())));

  it('is answered by /licenses/stats, not taken for a license id, and is all zeros on an empty database', async () => {
    const t = await freshApp();
    const res = await t.admin('GET', '/licenses/stats');
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ active: 0, expired: 0, byStatus: { active: 0, notStarted: 0, grace: 0, expired: 0, revoked: 0 }, validationsByHour: [] });
    const license = await newLicense(t);
    expect((await t.admin('GET', `/licenses/${license.id}`)).json.id).toBe(license.id);
  });

  it('counts active and expired licenses at the server time (null never expires)', async () => {
    const t = await freshApp();
    const now = Date.now();
    await newLicense(t, { expiresAtEpochMillis: null });
    await newLicense(t, { expiresAtEpochMillis: now + DAY });
    await newLicense(t, { expiresAtEpochMillis: now + 60_000 });
    await newLicense(t, { expiresAtEpochMillis: now - DAY });
    await newLicense(t, { expiresAtEpochMillis: 0 });
    expect((await t.admin('GET', '/licenses/stats')).json).toMatchObject({ active: 3, expired: 2 });

    // Expired once the time is at the expiry, not only after it.
    const expiry = now + 30_000; // before the one-minute license expires
    await newLicense(t, { expiresAtEpochMillis: expiry });
    expect(await getLicenseStats(t.app.db, {}, expiry - 1)).toMatchObject({ active: 4, expired: 2 });
    expect(await getLicenseStats(t.app.db, {}, expiry)).toMatchObject({ active: 3, expired: 3 });
  });

  it('counts attempts recorded by validation per hour, successful and failed', async () => {
    const t = await freshApp();
    const license = await newLicense(t);
    const expired = await newLicense(t, { expiresAtEpochMillis: Date.now() - DAY });
    const ok = { licenseId: license.id, productId: license.productId, hwid: 'HW-1' };
    expect((await validate(t, ok, '127.0.0.2')).json).toEqual({ valid: true });
    expect((await validate(t, ok, '127.0.0.3')).json).toEqual({ valid: true });
    expect((await validate(t, { ...ok, productId: expired.productId }, '127.0.0.4')).json).toEqual({ valid: false });
    expect((await validate(t, { ...ok, licenseId: expired.id, productId: expired.productId }, '127.0.0.5')).json).toEqual({ valid: false });
    expect((await validate(t, { ...ok, licenseId: 'UNKNOWN' }, '127.0.0.6')).json).toEqual({ valid: false }); // nothing recorded

    const res = await t.admin('GET', '/licenses/stats');
    expect(res.json).toMatchObject({ active: 1, expired: 1 });
    const buckets = res.json.validationsByHour as { hourEpochMillis: number; successful: number; failed: number }[];
    // Normally one hour; two when the calls straddled the turn of an hour.
    const recorded = [...(await readLicense(t, license.id)).validationAttempts, ...(await readLicense(t, expired.id)).validationAttempts];
    expect(buckets.map((b) => b.hourEpochMillis)).toEqual([...new Set(recorded.map((a) => hourOf(a.timestampEpochMillis)))].sort());
    const sum = buckets.reduce((s, b) => ({ successful: s.successful + b.successful, failed: s.failed + b.failed }), { successful: 0, failed: 0 });
    expect(sum).toEqual({ successful: 2, failed: 2 });
  });

  it('counts attempts at or after `since` in UTC hours, oldest first, leaving out empty hours', async () => {
    const t = await freshApp();
    const [a, b] = [await newLicense(t), await newLicense(t)];
    const since = hourOf(Date.now()) - 48 * HOUR + 30 * 60_000; // not on an hour: the first bucket starts before it
    const later = hourOf(since) + 5 * HOUR;
    await insertAttempts(t, a.id, [
      [since - 1, true], // before the window
      [since, true],
      [since + 10 * 60_000, false],
      [later, true],
      [later + HOUR - 1, true],
    ]);
    await insertAttempts(t, b.id, [
      [later + 1, false],
      [later + HOUR, false], // the next hour
      [later + 20 * HOUR, true],
    ]);

    const res = await t.admin('GET', `/licenses/stats?since=${since}`);
    expect(res.status).toBe(200);
    expect(res.json.validationsByHour).toEqual([
      { hourEpochMillis: hourOf(since), successful: 1, failed: 1 },
      { hourEpochMillis: later, successful: 2, failed: 1 },
      { hourEpochMillis: later + HOUR, successful: 0, failed: 1 },
      { hourEpochMillis: later + 20 * HOUR, successful: 1, failed: 0 },
    ]);
  });

  it('defaults `since` to 14 days ago', async () => {
    const t = await freshApp();
    const license = await newLicense(t);
    const now = Date.now();
    await insertAttempts(t, license.id, [[now - 15 * DAY, true], [now - 13 * DAY, false]]);
    expect((await t.admin('GET', '/licenses/stats')).json.validationsByHour).toEqual([
      { hourEpochMillis: hourOf(now - 13 * DAY), successful: 0, failed: 1 },
    ]);
  });

  // Stats count the attempts the histories hold (as a direct count would): pruning, a PUT that
  // replaces a history and a deleted license take theirs out of the counters too.
  it('answers from counters that always equal a direct count of the kept attempts', async () => {
    const t = await freshApp({ VALIDATION_HISTORY_MAX: '5', VALIDATION_RATE_LIMIT: '1000' });
    const directCount = async (since: number) =>
      (await attemptsByHourQuery(t.app.db, since).execute()).map((r) => ({
        hourEpochMillis: Number(r.hour) * HOUR,
        successful: Number(r.successful),
        failed: Number(r.attempts) - Number(r.successful),
      }));
    const statsSince = async (since: number) => (await t.admin('GET', `/licenses/stats?since=${since}`)).json.validationsByHour;
    const since = hourOf(Date.now()) - 10 * DAY;
    const [kept, replaced, deleted] = [await newLicense(t), await newLicense(t, { maxHwids: 1 }), await newLicense(t)];
    for (let i = 0; i < 12; i += 1) {
      for (const license of [kept, replaced, deleted]) {
        await validate(t, { licenseId: license.id, productId: license.productId, hwid: `HW-${i % 2}` }, '127.0.0.2');
      }
    }
    expect((await readLicense(t, kept.id)).validationAttempts.length).toBe(5);
    expect(await statsSince(since)).toEqual(await directCount(since));

    const now = Date.now();
    const history = [
      { hwid: 'A', ip: '10.0.0.1', timestampEpochMillis: now - 3 * DAY, successful: true },
      { hwid: 'A', ip: '10.0.0.1', timestampEpochMillis: now - 3 * DAY + 1, successful: false, reason: 'EXPIRED' },
    ];
    const current = await readLicense(t, replaced.id);
    expect((await t.admin('PUT', `/licenses/${replaced.id}`, { body: putBody(current, { validationAttempts: history }) })).status).toBe(200);
    expect((await t.admin('DELETE', `/licenses/${deleted.id}`)).status).toBe(204);

    // PostgreSQL prunes beside the answers, at most once a second per license: wait for the kept history's last prune.
    const storedOf = async (licenseId: string) =>
      Number((await t.app.db.selectFrom('validation_attempts').select((eb) => eb.fn.countAll().as('n')).where('license_id', '=', licenseId).executeTakeFirstOrThrow()).n);
    await until('the kept history pruned to 5', () => storedOf(kept.id), (n) => n <= 5);
    const after = await statsSince(since);
    expect(after).toEqual(await directCount(since));
    expect(after[0]).toEqual({ hourEpochMillis: hourOf(now - 3 * DAY), successful: 1, failed: 1 });
    const total = after.reduce((n: number, h: { successful: number; failed: number }) => n + h.successful + h.failed, 0);
    const stored = await t.app.db.selectFrom('validation_attempts').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    expect(total).toBe(Number(stored.n));
    expect(total).toBeLessThan(2 + 12); // pruning took attempts out of the counters as well
  });

  describe('refusals', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await freshApp();
    });

    it('needs credentials and licenses:read', async () => {
      expect((await t.req('GET', '/licenses/stats')).status).toBe(401);
      const others = await staffWith(t, ['licenses:write', 'licenses:delete', 'customers:read', 'products:read']);
      const denied = await t.req('GET', '/licenses/stats', { token: others.token });
      expect(denied.status).toBe(403);
      expect(denied.json).toEqual({ error: 'Missing permission: licenses:read' });
      // The permission is checked before the query: a bad `since` is still 403.
      expect((await t.req('GET', '/licenses/stats?since=x', { token: others.token })).status).toBe(403);
      const reader = await staffWith(t, ['licenses:read']);
      expect((await t.req('GET', '/licenses/stats', { token: reader.token })).status).toBe(200);
    });

    it('answers 400 for a `since` that is not an epoch-millis integer, too far back or in the future', async () => {
      const now = Date.now();
      const cases: [string, string][] = [
        ['abc', 'since must be integer'],
        ['1.5', 'since must be integer'],
        ['-1', 'since must be >= 0'],
        [String(now - 91 * DAY), 'since must be at most 90 days ago'],
        [String(now + DAY), 'since must not be in the future'],
      ];
      for (const [since, error] of cases) {
        const res = await t.admin('GET', `/licenses/stats?since=${since}`);
        expect(res.status, since).toBe(400);
        expect(res.json).toEqual({ error });
      }
      expect((await t.admin('GET', `/licenses/stats?since=${now - 89 * DAY}`)).status).toBe(200);
    });

    it('is described in the OpenAPI document with its permission', async () => {
      const doc = (await t.req('GET', '/openapi.json')).json;
      const route = doc.paths['/licenses/stats'].get;
      expect(route.description).toContain('licenses:read');
      expect(Object.keys(route.responses).sort()).toEqual(['200', '400', '401', '403', '429', '503']);
    });
  });
});

// The query plan is SQLite's concern: there the aggregate runs on the thread that answers requests.
describe('license stats query plan (sqlite)', () => {
  it('reads the counters from their key, and attempts only for the part of an hour before the first whole one', async () => {
    const t = await startTestApp('sqlite');
    try {
      const planOf = async (query: { sql: string; parameters: readonly unknown[] }) =>
        (await t.app.db.executeQuery<{ detail: string }>(CompiledQuery.raw(`explain query plan ${query.sql}`, [...query.parameters]))).rows
          .map((r) => r.detail)
          .join('; ');
      expect(await planOf(countedHoursQuery(t.app.db, 0).compile())).toMatch(/SEARCH validation_counts_by_hour USING .*\(hour>\?\)/);
      const query = attemptsByHourQuery(t.app.db, Date.now(), Date.now() + HOUR).compile();
      expect(await planOf(query)).toMatch(/COVERING INDEX validation_attempts_stats_idx \(timestamp>\? AND timestamp<\?\)/);
    } finally {
      await t.close();
    }
  });
});
