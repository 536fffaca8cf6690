// The SQLite batch on a real database file: many requests in one transaction, applied in
// arrival order, with more attempts than one INSERT statement takes.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../test/helpers/test-app.js';
import { createDb, migrateToLatest, type DbHandle } from '../../db/database.js';
import { createBatchProcessor } from './validation.sqlite-batch.js';
import { NO_EVENTS } from '../events/subscriptions.js';

describe('SQLite validation batch', () => {
  let database: TestDatabase;
  let handle: DbHandle;
  beforeEach(async () => {
    database = await createTestDatabase('sqlite');
    handle = createDb(database.url);
    await migrateToLatest(handle.db);
    const now = Date.now();
    await handle.db.insertInto('customers').values({ id: 'c', name: 'C', email: 'c@example.com', socials: '{}', created_at: now }).execute();
    await handle.db
      .insertInto('products')
      .values({ id: 'p', name: 'P', product_type: 'software', price: 1, requires_license: 1, is_subscription: 0, created_at: now })
      .execute();
    await handle.db
      .insertInto('licenses')
      .values({ id: 'L', product_id: 'p', customer_id: 'c', expires_at: null, max_ips: null, max_hwids: 3, version: 1, created_at: now })
      .execute();
  });
  afterEach(async () => {
    await handle.db.destroy();
    await database.drop();
  });

  it('applies 150 requests in arrival order and records every attempt of a known license', async () => {
    const requests = Array.from({ length: 150 }, (_, i) => ({
      licenseId: i % 10 === 9 ? 'unknown' : 'L',
      productId: 'p',
      hwid: `HW-${i % 5}`,
      ip: `10.0.0.${i}`,
    }));
    const outcomes = createBatchProcessor(handle.db, handle.sqlite!, 1000, NO_EVENTS)(requests);

    // HW-0..HW-2 take the three slots on first sight; HW-3 and HW-4 never fit; unknown is false.
    expect(outcomes.map((o) => (o instanceof Error ? o : o.valid))).toEqual(requests.map((r) => r.licenseId === 'L' && ['HW-0', 'HW-1', 'HW-2'].includes(r.hwid)));
    const attempts = await handle.db.selectFrom('validation_attempts').select(['hwid', 'ip', 'reason']).orderBy('id').execute();
    const known = requests.filter((r) => r.licenseId === 'L');
    expect(attempts.map((a) => a.ip)).toEqual(known.map((r) => r.ip));
    expect(attempts.map((a) => a.reason)).toEqual(known.map((r) => (['HW-0', 'HW-1', 'HW-2'].includes(r.hwid) ? 'VALID' : 'HWID_LIMIT_REACHED')));
    const hwids = await handle.db.selectFrom('license_hwids').select('hwid').orderBy('position').execute();
    expect(hwids.map((h) => h.hwid)).toEqual(['HW-0', 'HW-1', 'HW-2']);
    const ips = await handle.db.selectFrom('license_ips').select('ip').execute();
    expect(ips).toHaveLength(known.filter((r) => ['HW-0', 'HW-1', 'HW-2'].includes(r.hwid)).length);
  });
});
