// Migration 0005 rebuilds validation_attempts with database-assigned integer ids: the
// history must survive it (and its down migration) in the same order, ties included.
import type { Kysely } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { insertTwoLicenses, migrateTo } from '../../../test/helpers/migrations.js';
import { createTestDatabase, DIALECTS, type TestDatabase } from '../../../test/helpers/test-app.js';
import { createDb } from '../database.js';

const BEFORE = '2026_11_23_0004_validation_attempts_stats_index';
const AFTER = '2026_11_24_0005_validation_attempts_integer_key';

describe.each(DIALECTS)('migration to integer attempt ids (%s)', (dialect) => {
  let database: TestDatabase;
  let db: Kysely<any>;
  afterEach(async () => {
    await db.destroy();
    await database.drop();
  });


  const history = () =>
    db.selectFrom('validation_attempts').select(['license_id', 'hwid', 'timestamp', 'reason']).orderBy('license_id').orderBy('timestamp').orderBy('id').execute();

  it('keeps every attempt in history order, up and down', async () => {
    database = await createTestDatabase(dialect);
    db = createDb(database.url).db;
    await migrateTo(db, BEFORE);
    const now = Date.now();
    await insertTwoLicenses(db, now);
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

    await migrateTo(db, AFTER);
    expect(await history()).toEqual(expected);
    const ids = (await db.selectFrom('validation_attempts').select('id').orderBy('id').execute()).map((r) => Number(r.id));
    expect(ids).toEqual([1, 2, 3, 4]);
    // New attempts get the next id without being given one.
    await db.insertInto('validation_attempts').values({ license_id: 'L1', hwid: 'e', ip: '10.0.0.1', timestamp: 2000, successful: 0, reason: 'EXPIRED' }).execute();
    const withNew = await history();
    expect(withNew.map((a) => a.hwid)).toEqual(['a', 'b', 'c', 'e', 'd']);

    await migrateTo(db, BEFORE);
    expect(await history()).toEqual(withNew);
    await migrateTo(db, AFTER);
    expect(await history()).toEqual(withNew);
  });
});
