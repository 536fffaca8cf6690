// PostgreSQL only: validations that bind nothing take no row lock; those that may bind
// wait for it. Proven by holding the license's row lock from another connection.
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newLicense, readLicense, validate } from '../../../test/helpers/fixtures.js';
import { untilWaitingOnLock } from '../../../test/helpers/lock-waits.js';
import { startTestApp, TEST_POSTGRES_URL, type TestApp } from '../../../test/helpers/test-app.js';
import { until } from '../../../test/helpers/until.js';
import type { License } from '../licenses/licenses.schemas.js';
import { insertAttemptsIfStillBound } from './validation.repository.js';

// Runs whenever PostgreSQL answers (the SQLite path has no row locks).
describe.skipIf(!TEST_POSTGRES_URL)('validation row locks (postgres)', () => {
  let t: TestApp;
  let other: pg.Client;
  beforeAll(async () => {
    t = await startTestApp('postgres', { VALIDATION_RATE_LIMIT: '100000' });
    other = new pg.Client({ connectionString: t.database.url });
    await other.connect();
  });
  afterAll(async () => {
    await other.end();
    await t.close();
  });

  /** Runs `whileLocked` while another connection holds the licenses' row locks (as the binding path takes them). */
  async function withRowLocks<T>(licenses: License[], whileLocked: () => Promise<T>): Promise<T> {
    await other.query('BEGIN');
    await other.query('SELECT id FROM licenses WHERE id = ANY($1) FOR NO KEY UPDATE', [licenses.map((l) => l.id)]);
    try {
      return await whileLocked();
    } finally {
      await other.query('COMMIT');
    }
  }

  it('answers and records validations that bind nothing without the lock: bound, mismatched, expired, over a limit', async () => {
    const license = await newLicense(t, { maxIps: 1, maxHwids: 1 });
    const args = { licenseId: license.id, productId: license.productId, hwid: 'HW' };
    expect((await validate(t, args)).json).toEqual({ valid: true }); // binds 127.0.0.1 and HW

    const expired = await newLicense(t, { expiresAtEpochMillis: Date.now() - 1000 });

    const answers = await withRowLocks([license, expired], () =>
      Promise.all([
        validate(t, args),
        validate(t, { ...args, productId: 'another-product' }),
        validate(t, { licenseId: expired.id, productId: expired.productId, hwid: 'HW' }),
        validate(t, { ...args, hwid: 'HW-OTHER' }),
      ]),
    );
    expect(answers.map((res) => res.json)).toEqual([{ valid: true }, { valid: false }, { valid: false }, { valid: false }]);
    const reasons = (await readLicense(t, license.id)).validationAttempts.map((a) => a.reason);
    expect(reasons.slice(1).sort()).toEqual(['HWID_LIMIT_REACHED', 'PRODUCT_MISMATCH', 'VALID']);
    expect((await readLicense(t, expired.id)).validationAttempts.map((a) => a.reason)).toEqual(['EXPIRED']);
  });

  it('makes a validation that may bind a new HWID wait for the lock, then decide under it', async () => {
    const license = await newLicense(t, { maxIps: 1, maxHwids: 1 });
    const { pending } = await withRowLocks([license], async () => {
      let settled = false;
      const pending = validate(t, { licenseId: license.id, productId: license.productId, hwid: 'HW-NEW' }).finally(() => (settled = true));
      await untilWaitingOnLock(t.app.db, "the binding validation waiting for the license's row lock");
      expect(settled).toBe(false);
      return { pending }; // not the promise itself: returning it would wait for it here
    });
    expect((await pending).json).toEqual({ valid: true });
    expect((await readLicense(t, license.id)).usedHwids).toEqual(['HW-NEW']);
  });

  it('answers false for a license deleted between its read and its attempt, without failing the others', async () => {
    const doomed = await newLicense(t);
    const kept = await newLicense(t);
    for (const license of [doomed, kept]) await validate(t, { licenseId: license.id, productId: license.productId, hwid: 'HW' });
    // A full row lock holds up the attempt statement's key-share lock until the license is gone.
    await other.query('BEGIN');
    await other.query('SELECT id FROM licenses WHERE id = $1 FOR UPDATE', [doomed.id]);
    const answers = Promise.all([doomed, kept].map((l) => validate(t, { licenseId: l.id, productId: l.productId, hwid: 'HW' })));
    await untilWaitingOnLock(t.app.db, "the doomed license's attempt waiting for its row lock");
    await other.query('DELETE FROM licenses WHERE id = $1', [doomed.id]);
    await other.query('COMMIT');
    expect((await answers).map((res) => [res.status, res.json])).toEqual([
      [200, { valid: false }],
      [200, { valid: true }],
    ]);
    expect((await readLicense(t, kept.id)).validationAttempts).toHaveLength(2);
  });

  it('records a bound batch with one check per license + IP + HWID + version: every attempt in order, one answer per key that still holds', async () => {
    const license = await newLicense(t);
    expect((await validate(t, { licenseId: license.id, productId: license.productId, hwid: 'HW' })).json).toEqual({ valid: true });
    const { version } = await readLicense(t, license.id);
    const at = (ts: number, over: Partial<{ hwid: string; version: number }> = {}) => ({ licenseId: license.id, ip: '127.0.0.1', hwid: 'HW', version, timestamp: ts, ...over });
    const recorded = await insertAttemptsIfStillBound(t.app.db, [at(1001), at(1002, { version: version - 1 }), at(1003), at(1004, { hwid: 'HW-UNBOUND' }), at(1005)]);
    // The stale version and the unbound HWID are not recorded, nor answered: answers carry the version they hold for.
    expect(recorded).toEqual([{ license_id: license.id, ip: '127.0.0.1', hwid: 'HW', version, product_features: null, product_reveal_reasons: 0, tier_features: null }]);
    const history = (await readLicense(t, license.id)).validationAttempts.map((a) => a.timestampEpochMillis);
    expect(history.filter((ts) => ts < 2000).sort()).toEqual([1001, 1003, 1005]);
  });
});
