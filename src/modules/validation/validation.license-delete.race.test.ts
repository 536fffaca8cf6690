// A license deleted while validations of it are in flight leaves no attempt behind and
// answers no 500. On PostgreSQL attempts have no foreign key (migration 2026_12_01_0100):
// every statement that inserts them holds the license row's key-share lock, and a delete
// locks the row before it removes the attempts. The PostgreSQL cases hold a lock from
// another session to stop one side of the race at the point that matters, and wait until
// the other side is seen waiting on the lock it races (pg_stat_activity), not for a time.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestResponse } from '../../../test/helpers/http.js';
import { newLicense, validate } from '../../../test/helpers/fixtures.js';
import { DIALECTS, startTestApp, TEST_POSTGRES_URL, type TestApp } from '../../../test/helpers/test-app.js';
import { until } from '../../../test/helpers/until.js';
import type { License } from '../licenses/licenses.schemas.js';

const ENV = { VALIDATION_RATE_LIMIT: '1000000' };

const attemptsOf = async (t: TestApp, licenseId: string) =>
  (await t.app.db.selectFrom('validation_attempts').select('id').where('license_id', '=', licenseId).execute()).length;

/** Bound (127.0.0.1 and HW) and seen bound: its next bound validations take the one-statement fast path. */
async function boundLicense(t: TestApp): Promise<License> {
  const license = await newLicense(t);
  for (let i = 0; i < 3; i += 1) {
    expect((await validate(t, { licenseId: license.id, productId: license.productId, hwid: 'HW' })).json).toEqual({ valid: true });
  }
  return license;
}

/** Bound validations (fast path), ones that may bind (row lock) and a product mismatch (lock-free insert). */
const mixedValidations = (t: TestApp, license: License, n: number) =>
  Array.from({ length: n }, (_, i) => {
    const body = { licenseId: license.id, productId: license.productId, hwid: 'HW' };
    if (i % 3 === 1) body.hwid = `HW-${i}`;
    if (i % 3 === 2) body.productId = 'another-product';
    return validate(t, body);
  });

const statuses = (answers: TestResponse[]) => [...new Set(answers.map((res) => res.status))];

describe.each(DIALECTS)('a license deleted while validations of it are in flight (%s)', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(dialect, ENV);
  });
  afterAll(() => t?.close());

  it('answers every validation (no 500) and leaves none of its attempts behind', async () => {
    const license = await boundLicense(t);
    const validations = mixedValidations(t, license, 60);
    const deleted = await t.admin('DELETE', `/licenses/${license.id}`);
    const answers = await Promise.all(validations);
    expect(deleted.status).toBe(204);
    expect(statuses(answers)).toEqual([200]);
    expect(await attemptsOf(t, license.id)).toBe(0);
  });
});

describe.skipIf(!TEST_POSTGRES_URL)('a license delete racing the attempts of its validations (postgres)', () => {
  let t: TestApp;
  /** Holds the lock that stops one side of the race. */
  let other: pg.Client;
  /** Watches the app's backends: outside `other`'s transaction, whose view of pg_stat_activity is fixed at its first read. */
  let watcher: pg.Client;
  beforeAll(async () => {
    // The statements stopped here wait longer than the default statement timeout may allow on a busy machine.
    t = await startTestApp('postgres', { ...ENV, POSTGRES_STATEMENT_TIMEOUT_MS: '60000' });
    other = new pg.Client({ connectionString: t.database.url });
    watcher = new pg.Client({ connectionString: t.database.url });
    await Promise.all([other.connect(), watcher.connect()]);
  });
  afterAll(async () => {
    await other?.end();
    await watcher?.end();
    await t?.close();
  });

  /** Statements of the app's backends waiting on a heavyweight lock (a row's or a table's). */
  const waiting = async () =>
    (
      await watcher.query<{ query: string }>(
        `SELECT query FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid() AND wait_event_type = 'Lock'`,
      )
    ).rows.map((r) => r.query.replace(/\s+/g, ' ').toLowerCase());

  const settled = (promises: Promise<unknown>[]) => {
    let done = false;
    void Promise.allSettled(promises).then(() => (done = true));
    return () => done;
  };

  it('a validation recording an attempt when the delete comes: the delete waits for its key-share lock, then removes the attempt', async () => {
    const license = await boundLicense(t);
    await other.query('BEGIN');
    let answers: Promise<TestResponse[]>;
    let deleted: Promise<TestResponse>;
    try {
      // The attempt statement's counts trigger waits here: the statement holds the license's
      // key-share lock and its inserted attempts, uncommitted.
      await other.query('LOCK TABLE validation_counts_by_hour IN SHARE MODE');
      answers = Promise.all(Array.from({ length: 5 }, () => validate(t, { licenseId: license.id, productId: license.productId, hwid: 'HW' })));
      await until('the validation insert waiting on the trigger', waiting, (queries) => queries.some((q) => q.includes('insert into validation_attempts')));
      deleted = t.admin('DELETE', `/licenses/${license.id}`);
      // The delete is seen waiting, on the validation's row lock (or, were it not to lock first, on the trigger's table).
      await until('the delete waiting on the row lock', waiting, (queries) => queries.some((q) => q.includes('for update') || q.startsWith('delete')));
    } finally {
      await other.query('COMMIT');
    }
    expect((await deleted).status).toBe(204);
    // Those of the stalled statement were recorded first (and so removed by the delete); any
    // later batch found the license gone.
    const answered = await answers;
    expect(statuses(answered)).toEqual([200]);
    expect(answered.filter((res) => res.json.valid === true).length).toBeGreaterThan(0);
    expect(await attemptsOf(t, license.id)).toBe(0);
  });

  it('validations arriving while the delete holds the row: they wait for it, find the license gone, record nothing and answer false', async () => {
    const license = await boundLicense(t);
    await other.query('BEGIN');
    let answers: Promise<TestResponse[]>;
    let deleted: Promise<TestResponse>;
    try {
      // The delete stops at its audit entry, after it locked and deleted the license (uncommitted).
      await other.query('LOCK TABLE audit_entries IN SHARE MODE');
      deleted = t.admin('DELETE', `/licenses/${license.id}`);
      await until('the delete waiting at its audit entry', waiting, (queries) => queries.some((q) => q.includes('audit_entries')));
      const validations = mixedValidations(t, license, 9);
      answers = Promise.all(validations);
      const withoutRowLock = settled(validations.filter((_, i) => i % 3 !== 1));
      // Each kind of insert is seen waiting on the delete's row lock: the bound batch, the
      // lock-free batch (both FOR KEY SHARE) and the locked path (FOR NO KEY UPDATE). (Were
      // the first two not to lock, they would answer instead.)
      await until(
        'each kind of insert waiting on the delete',
        waiting,
        (queries) =>
          (withoutRowLock() || queries.filter((q) => q.includes('for key share of l')).length >= 2) && queries.some((q) => q.includes('for no key update')),
      );
    } finally {
      await other.query('COMMIT');
    }
    expect((await deleted).status).toBe(204);
    expect((await answers).map((res) => [res.status, res.json])).toEqual(Array.from({ length: 9 }, () => [200, { valid: false }]));
    expect(await attemptsOf(t, license.id)).toBe(0);
  });
});
