// The database goes away under load: the process lives, requests answer 503 with
// Retry-After (never 500, never a hang), /readyz says not ready, service resumes by
// itself, and no acknowledged validation is missing from the history.
// PostgreSQL: a TCP proxy of the test's own between the app and the server is cut (every
// connection dropped, new ones refused) and restored. SQLite: another connection holds
// the write lock beyond the busy timeout; the file is full (max_page_count).
import SqliteDatabase from 'better-sqlite3';
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newLicense, validate } from '../../test/helpers/fixtures.js';
import { proxyFor, viaProxy, type TcpProxy } from '../../test/helpers/tcp-proxy.js';
import { createTestDatabase, DIALECTS, startTestApp, type TestApp, type TestDatabase } from '../../test/helpers/test-app.js';
import type { TestResponse } from '../../test/helpers/http.js';
import { until } from '../../test/helpers/until.js';
import { untilWaitingOnLock } from '../../test/helpers/lock-waits.js';

const UNAVAILABLE = { error: 'Service temporarily unavailable' };

function expectUnavailable(res: TestResponse): void {
  expect(res.status).toBe(503);
  expect(res.json).toEqual(UNAVAILABLE);
  expect(res.headers['retry-after']).toBe('5');
}

/** Answers of `status` since the `from`th answer. */
const answered = (statuses: number[], status: number, from: number) => statuses.slice(from).filter((s) => s === status).length;

interface Acked {
  licenseId: string;
  hwid: string;
}

/**
 * Validation load on `licenses` from several loops until stop(): every other call
 * repeats a bound HWID (group-commit path), the others bind a new one (row-lock path).
 */
function validationLoad(t: TestApp, licenses: { id: string; productId: string }[]) {
  let running = true;
  const statuses: number[] = [];
  const acked: Acked[] = [];
  const bad: TestResponse[] = [];
  const loops = licenses.map(async (license, loop) => {
    for (let n = 0; running; n += 1) {
      const hwid = n % 2 === 0 ? `HW-${loop}` : `HW-${loop}-${n}`;
      const res = await validate(t, { licenseId: license.id, productId: license.productId, hwid });
      statuses.push(res.status);
      if (res.status === 200 && res.json.valid === true) acked.push({ licenseId: license.id, hwid });
      else if (res.status !== 503 || res.headers['retry-after'] !== '5') bad.push(res);
    }
  });
  return {
    statuses,
    acked,
    bad,
    async stop() {
      running = false;
      await Promise.all(loops);
    },
  };
}

/** Every acknowledged validation is in the history (as many attempts per license and HWID at least). */
async function expectAcknowledgedRecorded(t: TestApp, acked: Acked[]): Promise<void> {
  const rows = await t.app.db.selectFrom('validation_attempts').select(['license_id', 'hwid']).execute();
  const recorded = new Map<string, number>();
  for (const r of rows) recorded.set(`${r.license_id}|${r.hwid}`, (recorded.get(`${r.license_id}|${r.hwid}`) ?? 0) + 1);
  const wanted = new Map<string, number>();
  for (const a of acked) wanted.set(`${a.licenseId}|${a.hwid}`, (wanted.get(`${a.licenseId}|${a.hwid}`) ?? 0) + 1);
  const missing = [...wanted].filter(([key, n]) => (recorded.get(key) ?? 0) < n);
  expect(missing).toEqual([]);
}

describe.skipIf(!DIALECTS.includes('postgres'))('PostgreSQL outage under load (postgres)', () => {
  let database: TestDatabase;
  let proxy: TcpProxy;
  let t: TestApp;
  beforeAll(async () => {
    database = await createTestDatabase('postgres');
    proxy = await proxyFor(database.url);
    t = await startTestApp('postgres', { VALIDATION_RATE_LIMIT: '1000000', VALIDATION_HISTORY_MAX: '0' }, { url: viaProxy(database.url, proxy), drop: async () => {} });
  });
  afterAll(async () => {
    await t?.close();
    await proxy?.close();
    await database?.drop();
  });

  it('answers 503 with Retry-After while the server is gone, is not ready, and recovers losing no acknowledged attempt', async () => {
    const licenses = await Promise.all(Array.from({ length: 4 }, () => newLicense(t)));
    const load = validationLoad(t, licenses);
    await until('40 acknowledged validations', () => load.acked.length, (n) => n >= 40);

    await proxy.cut();
    const cutAt = load.statuses.length;
    await until('20 answers 503 after the cut', () => answered(load.statuses, 503, cutAt), (n) => n >= 20);
    expectUnavailable(await t.admin('GET', '/customers'));
    const ready = await t.req('GET', '/readyz');
    expect(ready.status).toBe(503);
    expect(ready.json).toEqual({ status: 'database unavailable' });

    await proxy.restore();
    const restoredAt = load.statuses.length;
    await until('20 answers 200 after the restore', () => answered(load.statuses, 200, restoredAt), (n) => n >= 20);
    await load.stop();

    expect(load.bad.map((r) => `${r.status} ${r.text}`)).toEqual([]);
    expect(new Set(load.statuses)).toEqual(new Set([200, 503]));
    expect((await t.req('GET', '/readyz')).status).toBe(200);
    expect((await t.admin('GET', '/customers')).status).toBe(200);
    await expectAcknowledgedRecorded(t, load.acked);
  });

  it('lives through the server terminating its connections under load (57P01, as in a restart) and loses no acknowledged attempt', async () => {
    const licenses = await Promise.all(Array.from({ length: 4 }, () => newLicense(t)));
    const load = validationLoad(t, licenses);
    const admin = new pg.Client({ connectionString: database.url });
    await admin.connect();
    try {
      let terminated = 0;
      for (let round = 0; round < 5; round += 1) {
        await until(`${20 * (round + 1)} acknowledged validations`, () => load.acked.length, (n) => n >= 20 * (round + 1));
        const { rows } = await admin.query<{ ok: boolean }>(
          'select pg_terminate_backend(pid) as ok from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()',
        );
        terminated += rows.filter((r) => r.ok).length;
      }
      expect(terminated).toBeGreaterThan(0);
      const after = load.statuses.length;
      await until('20 answers 200 after the terminations', () => answered(load.statuses, 200, after), (n) => n >= 20);
    } finally {
      await load.stop();
      await admin.end();
    }
    expect(load.bad.map((r) => `${r.status} ${r.text}`)).toEqual([]);
    await expectAcknowledgedRecorded(t, load.acked);
  });

  it('answers the webhook 503 in plain text while the server is gone', async () => {
    await proxy.cut();
    try {
      const res = await t.req('POST', '/marketplace', { form: { secret: 'test-marketplace-secret', user_id: '1', resource_id: '2' } });
      expect(res.status).toBe(503);
      expect(res.text).toBe('Service temporarily unavailable');
      expect(res.headers['retry-after']).toBe('5');
    } finally {
      await proxy.restore();
    }
  });
});

describe.skipIf(!DIALECTS.includes('sqlite'))('SQLite faults (sqlite)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp('sqlite', { VALIDATION_RATE_LIMIT: '1000000', VALIDATION_HISTORY_MAX: '0', SQLITE_BUSY_TIMEOUT_MS: '50' });
  });
  afterAll(() => t.close());

  it('answers 503 while another connection holds the write lock beyond the busy timeout, then recovers', async () => {
    const license = await newLicense(t);
    const args = { licenseId: license.id, productId: license.productId, hwid: 'HW' };
    expect((await validate(t, args)).json).toEqual({ valid: true });
    const other = new SqliteDatabase(t.database.url.slice('sqlite:'.length));
    try {
      other.exec('begin immediate');
      // A whole group-commit batch fails together: every request of it answers 503.
      const batch = await Promise.all(Array.from({ length: 10 }, (_, i) => validate(t, { ...args, hwid: `HW-${i}` })));
      for (const res of batch) expectUnavailable(res);
      expectUnavailable(await t.admin('POST', '/customers', { body: { name: 'Locked', email: 'locked@example.com' } }));
      other.exec('commit');
    } finally {
      other.close();
    }
    expect((await validate(t, args)).json).toEqual({ valid: true });
    const history = await t.admin('GET', `/licenses/${license.id}`);
    expect(history.json.validationAttempts.map((a: { hwid: string }) => a.hwid)).toEqual(['HW', 'HW']);
    const customers = (await t.admin('GET', '/customers')).json as { name: string }[];
    expect(customers.filter((c) => c.name === 'Locked')).toEqual([]);
  });

  it('answers 503 while the database is read-only, then recovers', async () => {
    await sql`pragma query_only = 1`.execute(t.app.db);
    try {
      expectUnavailable(await t.admin('POST', '/customers', { body: { name: 'Read-only', email: 'ro@example.com' } }));
    } finally {
      await sql`pragma query_only = 0`.execute(t.app.db);
    }
    expect((await t.admin('POST', '/customers', { body: { name: 'Writable', email: 'rw@example.com' } })).status).toBe(201);
  });

  it('answers 503 when the database file is full, then recovers once there is room', async () => {
    const license = await newLicense(t);
    const args = { licenseId: license.id, productId: license.productId, hwid: 'HW' };
    const { rows } = await sql<{ page_count: number }>`pragma page_count`.execute(t.app.db);
    await sql.raw(`pragma max_page_count = ${rows[0]!.page_count}`).execute(t.app.db);
    try {
      let res: TestResponse;
      let n = 0;
      do {
        res = await validate(t, { ...args, hwid: `HW-${'x'.repeat(200)}-${n}` });
        n += 1;
      } while (res.status === 200 && n < 10_000);
      expectUnavailable(res);
    } finally {
      await sql.raw('pragma max_page_count = 1073741823').execute(t.app.db);
    }
    expect((await validate(t, args)).json).toEqual({ valid: true });
  });
});

// A statement that stalls (here: behind a table lock another session holds) is cancelled
// by the statement timeout and its requests answer 503 at once, rather than hanging for as
// long as the stall lasts. On PostgreSQL bound validations are recorded by one batch in
// flight, so the requests queued behind the stalled batch fail too, within two timeouts.
describe.skipIf(!DIALECTS.includes('postgres'))('PostgreSQL statement stalled behind a lock (postgres)', () => {
  const TIMEOUT_MS = 300;
  let t: TestApp;
  let other: pg.Client;
  beforeAll(async () => {
    t = await startTestApp('postgres', { VALIDATION_RATE_LIMIT: '1000000', VALIDATION_HISTORY_MAX: '0', POSTGRES_STATEMENT_TIMEOUT_MS: String(TIMEOUT_MS) });
    other = new pg.Client({ connectionString: t.database.url });
    await other.connect();
  });
  afterAll(async () => {
    await other?.end();
    await t?.close();
  });

  const settledWithin = <T>(promise: Promise<T>, ms: number) =>
    Promise.race([promise, new Promise<'still waiting'>((resolve) => setTimeout(() => resolve('still waiting'), ms))]);

  it('answers 503 within the statement timeout while the attempts insert waits for a lock, then recovers losing no acknowledged attempt', async () => {
    const licenses = await Promise.all(Array.from({ length: 3 }, () => newLicense(t)));
    const argsOf = (l: { id: string; productId: string }) => ({ licenseId: l.id, productId: l.productId, hwid: 'HW' });
    const acked: Acked[] = [];
    // Bound and seen bound: the next validations of each take the one-statement fast path.
    for (const license of licenses) for (let i = 0; i < 3; i += 1) {
      expect((await validate(t, argsOf(license))).json).toEqual({ valid: true });
      acked.push({ licenseId: license.id, hwid: 'HW' });
    }

    await other.query('BEGIN');
    await other.query('LOCK TABLE validation_attempts IN SHARE MODE'); // reads go on; inserts wait
    let answers: TestResponse[] | 'still waiting';
    try {
      const started = Date.now();
      const pending = Promise.all(Array.from({ length: 30 }, (_, i) => validate(t, argsOf(licenses[i % licenses.length]!))));
      // The insert is seen waiting on the lock: the stall is the lock, not something else.
      // Read through the app's pool: in `other`'s transaction pg_stat_activity stays as first read.
      await untilWaitingOnLock(t.app.db, 'the attempts insert waiting on the locked table');
      answers = await settledWithin(pending, 10 * TIMEOUT_MS);
      if (answers !== 'still waiting') expect(Date.now() - started).toBeLessThan(10 * TIMEOUT_MS);
    } finally {
      await other.query('COMMIT');
    }
    expect(answers).not.toBe('still waiting');
    for (const res of answers as TestResponse[]) expectUnavailable(res);

    for (const license of licenses) {
      expect((await validate(t, argsOf(license))).json).toEqual({ valid: true });
      acked.push({ licenseId: license.id, hwid: 'HW' });
    }
    await expectAcknowledgedRecorded(t, acked);
  });
});
