// Migration 0014a adds per-hour counters of the stored attempts: it backfills them from
// the attempts already there, and its triggers keep them equal to a direct count.
import { sql, type Kysely } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { insertTwoLicenses, migrateTo } from '../../../test/helpers/migrations.js';
import { createTestDatabase, DIALECTS, type TestDatabase } from '../../../test/helpers/test-app.js';
import { createDb } from '../database.js';

const BEFORE = '2026_11_24_0005_validation_attempts_integer_key';
const AFTER = '2026_11_25_0014a_validation_counts_by_hour';
const HOUR = 3_600_000;

describe.each(DIALECTS)('migration to per-hour attempt counters (%s)', (dialect) => {
  let database: TestDatabase;
  let db: Kysely<any>;
  afterEach(async () => {
    await db.destroy();
    await database.drop();
  });


  const counters = async () =>
    (await db.selectFrom('validation_counts_by_hour').selectAll().where('attempts', '>', 0).orderBy('hour').execute()).map((r) => ({
      hour: Number(r.hour), attempts: Number(r.attempts), successful: Number(r.successful),
    }));
  const directCount = async () =>
    (
      await sql<{ hour: number; attempts: number; successful: number }>`SELECT "timestamp" / ${sql.lit(HOUR)} AS hour,
        count(*) AS attempts, sum(successful) AS successful FROM validation_attempts GROUP BY 1 ORDER BY 1`.execute(db)
    ).rows.map((r) => ({ hour: Number(r.hour), attempts: Number(r.attempts), successful: Number(r.successful) }));

  it('backfills the counters from the stored attempts, keeps them on insert and delete, and goes down cleanly', async () => {
    database = await createTestDatabase(dialect);
    db = createDb(database.url).db;
    await migrateTo(db, BEFORE);
    const now = Date.now();
    await insertTwoLicenses(db, now);
    const attempt = (license_id: string, timestamp: number, successful: number) =>
      ({ license_id, hwid: 'h', ip: '10.0.0.1', timestamp, successful, reason: successful ? 'VALID' : 'EXPIRED' });
    await db.insertInto('validation_attempts').values([attempt('L1', 10 * HOUR, 1), attempt('L1', 10 * HOUR + 5, 0), attempt('L2', 12 * HOUR, 1)]).execute();

    await migrateTo(db, AFTER);
    expect(await counters()).toEqual([{ hour: 10, attempts: 2, successful: 1 }, { hour: 12, attempts: 1, successful: 1 }]);

    await db.insertInto('validation_attempts').values([attempt('L2', 12 * HOUR + 1, 0), attempt('L2', 13 * HOUR, 1)]).execute();
    await db.deleteFrom('validation_attempts').where('timestamp', '=', 10 * HOUR + 5).execute();
    await db.deleteFrom('licenses').where('id', '=', 'L1').execute(); // its attempts go by cascade
    expect(await counters()).toEqual(await directCount());
    expect(await counters()).toEqual([{ hour: 12, attempts: 2, successful: 1 }, { hour: 13, attempts: 1, successful: 1 }]);

    await migrateTo(db, BEFORE);
    await db.insertInto('validation_attempts').values([attempt('L2', 14 * HOUR, 1)]).execute(); // no trigger left to fail
    const tables = await db.introspection.getTables();
    expect(tables.map((t) => t.name)).not.toContain('validation_counts_by_hour');
  });
});
