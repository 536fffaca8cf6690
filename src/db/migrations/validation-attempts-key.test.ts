// Migration 0005 rebuilds validation_attempts with database-assigned integer ids: the
// history must survive it (and its down migration) in the same order, ties included.
import { Migrator, type Kysely } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { createTestDatabase, DIALECTS, type TestDatabase } from '../../../test/helpers/test-app.js';
import { createDb } from '../database.js';
import { migrations } from './index.js';

const BEFORE = '2026_11_23_0004_validation_attempts_stats_index';
const AFTER = '2026_11_24_0005_validation_attempts_integer_key';

describe.each(DIALECTS)('migration to integer attempt ids (%s)', (dialect) => {
  let database: TestDatabase;
  let db: Kysely<any>;
  afterEach(async () => {
    await db.destroy();
    await database.drop();
  });

  async function migrateTo(name: string) {
    const { error } = await new Migrator({ db, provider: { getMigrations: async () => migrations } }).migrateTo(name);
    if (error) throw error;
  }

  const history = () =>
    db.selectFrom('validation_attempts').select(['license_id', 'hwid', 'timestamp', 'reason']).orderBy('license_id').orderBy('timestamp').orderBy('id').execute();

  it('keeps every attempt in history order, up and down', async () => {
    database = await createTestDatabase(dialect);
    db = createDb(database.url).db;
    await migrateTo(BEFORE);
    const now = Date.now();
    await db.insertInto('customers').values({ id: 'c', name: 'C', email: 'c@example.com', socials: '{}', created_at: now }).execute();
    await db
      .insertInto('products')
      .values({ id: 'p', name: 'P', product_type: 'software', price: 1, requires_license: 1, is_subscription: 0, created_at: now })
      .execute();
    await db
      .insertInto('licenses')
      .values(['L1', 'L2'].map((id) => ({ id, product_id: 'p', customer_id: 'c', expires_at: null, max_ips: null, max_hwids: null, version: 1, created_at: now })))
      .execute();
    // Text ids (UUIDv7 before 0005) break the timestamp tie between b and c; inserted out of order.
    const old = [
      { id: '0003', license_id: 'L1', hwid: 'c', timestamp: 2000 },
      { id: '0001', license_id: 'L1', hwid: 'a', timestamp: 1000 },
      { id: '0002', license_id: 'L1', hwid: 'b', timestamp: 2000 },
      { id: '0004', license_id: 'L2', hwid: 'd', timestamp: 500 },
    ];
    await db
      .insertInto('validation_attempts')
      .values(old.map((a) => ({ ...a, ip: '10.0.0.1', successful: 1, reason: 'VALID' })))
      .execute();
    const expected = await history();
    expect(expected.map((a) => a.hwid)).toEqual(['a', 'b', 'c', 'd']);

    await migrateTo(AFTER);
    expect(await history()).toEqual(expected);
    const ids = (await db.selectFrom('validation_attempts').select('id').orderBy('id').execute()).map((r) => Number(r.id));
    expect(ids).toEqual([1, 2, 3, 4]);
    // New attempts get the next id without being given one.
    await db.insertInto('validation_attempts').values({ license_id: 'L1', hwid: 'e', ip: '10.0.0.1', timestamp: 2000, successful: 0, reason: 'EXPIRED' }).execute();
    const withNew = await history();
    expect(withNew.map((a) => a.hwid)).toEqual(['a', 'b', 'c', 'e', 'd']);

    await migrateTo(BEFORE);
    expect(await history()).toEqual(withNew);
    await migrateTo(AFTER);
    expect(await history()).toEqual(withNew);
  });
});
