// Migration 0014a adds per-hour counters of the stored attempts: it backfills them from
// the attempts already there, and its triggers keep them equal to a direct count. 0070
// splits each hour into shards (PostgreSQL: one per writing backend): the sums stay exact.
import { sql, type Kysely } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { insertTwoLicenses, migrateTo } from '../../../test/helpers/migrations.js';
import { createTestDatabase, DIALECTS, type TestDatabase } from '../../../test/helpers/test-app.js';
import { createDb } from '../database.js';

const BEFORE = '2026_11_24_0005_validation_attempts_integer_key';
const AFTER = '2026_11_25_0014a_validation_counts_by_hour';
const SHARDED = '2026_11_28_0070_validation_counts_sharded';
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
  const summed = async () =>
    (
      await db
        .selectFrom('validation_counts_by_hour')
        .select((eb) => ['hour', eb.fn.sum('attempts').as('attempts'), eb.fn.sum('successful').as('successful')])
        .groupBy('hour')
        .having((eb) => eb.fn.sum('attempts'), '>', 0)
        .orderBy('hour')
        .execute()
    ).map((r) => ({ hour: Number(r.hour), attempts: Number(r.attempts), successful: Number(r.successful) }));
  const directCount = async () =>
    (
      await sql<{ hour: number; attempts: number; successful: number }>`SELECT "timestamp" / ${sql.lit(HOUR)} AS hour,
        count(*) AS attempts, sum(successful) AS successful FROM validation_attempts GROUP BY 1 ORDER BY 1`.execute(db)
    ).rows.map((r) => ({ hour: Number(r.hour), attempts: Number(r.attempts), successful: Number(r.successful) }));

  const attempt = (license_id: string, timestamp: number, successful: number) =>
    ({ license_id, hwid: 'h', ip: '10.0.0.1', timestamp, successful, reason: successful ? 'VALID' : 'EXPIRED' });

  it('backfills the counters from the stored attempts, keeps them on insert and delete, and goes down cleanly', async () => {
    database = await createTestDatabase(dialect);
    db = createDb(database.url).db;
    await migrateTo(db, BEFORE);
    const now = Date.now();
    await insertTwoLicenses(db, now);
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

  it('0070 shards the counters: concurrent writers add to their own rows, deletes subtract from theirs, the sums stay exact up and down', async () => {
    database = await createTestDatabase(dialect);
    db = createDb(database.url).db;
    await migrateTo(db, AFTER);
    await insertTwoLicenses(db, Date.now());
    await db.insertInto('validation_attempts').values([attempt('L1', 10 * HOUR, 1), attempt('L2', 10 * HOUR + 1, 0)]).execute();

    await migrateTo(db, SHARDED);
    expect(await summed()).toEqual([{ hour: 10, attempts: 2, successful: 1 }]);
    // Eight transactions at once: on PostgreSQL each holds its own pooled connection (backend).
    await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        db.transaction().execute(async (trx) => {
          await trx.insertInto('validation_attempts').values([attempt('L2', 11 * HOUR + i, i % 2)]).execute();
          await sql`SELECT 1`.execute(trx); // keep the transaction open a moment, as a commit's wait would
        }),
      ),
    );
    await db.deleteFrom('validation_attempts').where('timestamp', '=', 10 * HOUR).execute();
    await db.deleteFrom('licenses').where('id', '=', 'L1').execute();
    expect(await summed()).toEqual(await directCount());
    expect(await summed()).toEqual([{ hour: 10, attempts: 1, successful: 0 }, { hour: 11, attempts: 8, successful: 4 }]);
    const shards = await db.selectFrom('validation_counts_by_hour').select('shard').distinct().where('hour', '=', 11).execute();
    if (dialect === 'postgres') expect(shards.length).toBeGreaterThan(1);
    else expect(shards).toEqual([{ shard: 0 }]);

    await migrateTo(db, AFTER);
    expect(await counters()).toEqual(await directCount());
    await db.insertInto('validation_attempts').values([attempt('L2', 11 * HOUR + 30, 1)]).execute(); // the restored triggers work
    expect(await counters()).toEqual(await directCount());
  });
});
