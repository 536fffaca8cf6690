// kill -9 under batch-signed load: every answer that came back (a 200 with its receipt)
// names an attempt that is in the database, so no acknowledged attempt is lost and no
// receipt was handed out for an answer that never committed.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startChildApp, type ChildApp } from '../../../test/helpers/child-process-app.js';
import { newLicense, readLicense } from '../../../test/helpers/fixtures.js';
import { verifyBatchReceipt } from '../../../test/helpers/jws.js';
import { createTestDatabase, DIALECTS, startTestApp, type TestApp, type TestDatabase } from '../../../test/helpers/test-app.js';
import { until } from '../../../test/helpers/until.js';

const ENV = { VALIDATION_RATE_LIMIT: '1000000', VALIDATION_HISTORY_MAX: '0' };

describe.each(DIALECTS)('batch-signed receipts through kill -9 (%s)', (dialect) => {
  let database: TestDatabase;
  let t: TestApp;
  let child: ChildApp;
  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    t = await startTestApp(dialect, ENV, database);
    child = await startChildApp({ ...ENV, DATABASE_URL: database.url });
  }, 60_000);
  afterAll(async () => {
    await child?.kill();
    await t?.close();
    await database?.drop();
  });

  it('every receipt handed out names a committed attempt', async () => {
    const license = await newLicense(t);
    const receipts: string[] = [];
    let sent = 0;
    let stop = false;
    // Bound requests (batched inserts) and new machines (binding transactions) alike, 24 at a time.
    const load = (async () => {
      while (!stop) {
        await Promise.all(
          Array.from({ length: 24 }, async (_, i) => {
            const hwid = i % 2 ? 'HW-BOUND' : `HW-${(sent += 1)}`;
            const body = { licenseId: license.id, productId: license.productId, hwid, nonce: randomBytes(18).toString('base64url'), receiptFormat: 'batch' };
            const res = await child.req('POST', '/licenses/validate', { body }).catch(() => null); // the kill cuts some off
            if (res?.status === 200) receipts.push(res.headers['validation-receipt'] as string);
          }),
        );
      }
    })();
    await until('150 receipts handed out', async () => receipts.length, (count) => count >= 150, { timeoutMs: 60_000 });
    await child.kill();
    stop = true;
    await load;

    const jwks = (await t.req('GET', '/.well-known/jwks.json')).json;
    const recorded = new Map<string, number>();
    for (const a of (await readLicense(t, license.id)).validationAttempts) {
      const key = `${a.hwid}@${a.timestampEpochMillis}`;
      recorded.set(key, (recorded.get(key) ?? 0) + 1);
    }
    const unrecorded = receipts.filter((receipt) => {
      const { payload } = verifyBatchReceipt(receipt, jwks);
      const key = `${String(payload.hwid)}@${String(payload.timestampEpochMillis)}`;
      const left = recorded.get(key) ?? 0;
      recorded.set(key, left - 1);
      return left <= 0;
    });
    expect(receipts.length).toBeGreaterThanOrEqual(150);
    expect(unrecorded).toEqual([]);
  }, 120_000);
});
