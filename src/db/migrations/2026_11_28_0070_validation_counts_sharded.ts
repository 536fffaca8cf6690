// The hourly counters (0014a) had one row per hour: on PostgreSQL every attempt insert of
// that hour upserted the same row and held its lock until commit, so concurrent group
// commits queued behind each other's fdatasync instead of sharing one (docs/scale.md).
// Each hour now has a row per shard; a PostgreSQL backend writes its own shard
// (`pg_backend_pid() % 16`: a backend runs one transaction at a time, so its writes never
// wait for each other) and a delete subtracts from its own shard too: a shard may go
// negative, the sum of an hour's shards is the count. SQLite has one writer: shard 0.
import { sql, type Kysely } from 'kysely';
import { dialectOf } from '../storage/dialect.js';

const isSqlite = (db: Kysely<any>) => dialectOf(db) === 'sqlite';
const HOUR_MS = 3_600_000;
export const COUNTER_SHARDS = 16;

async function sqliteCounters(db: Kysely<any>, sharded: boolean): Promise<void> {
  await sql`DROP TRIGGER validation_counts_on_insert`.execute(db);
  await sql`DROP TRIGGER validation_counts_on_delete`.execute(db);
  await sql`ALTER TABLE validation_counts_by_hour RENAME TO validation_counts_by_hour_old`.execute(db);
  const key = sharded ? sql`hour, shard` : sql`hour`;
  await sql`CREATE TABLE validation_counts_by_hour (
    hour bigint NOT NULL, ${sharded ? sql`shard integer NOT NULL DEFAULT 0,` : sql``}
    attempts bigint NOT NULL, successful bigint NOT NULL, PRIMARY KEY (${key}))`.execute(db);
  await sql`INSERT INTO validation_counts_by_hour (hour, attempts, successful)
    SELECT hour, sum(attempts), sum(successful) FROM validation_counts_by_hour_old GROUP BY hour`.execute(db);
  await sql`DROP TABLE validation_counts_by_hour_old`.execute(db);
  await sql`CREATE TRIGGER validation_counts_on_insert AFTER INSERT ON validation_attempts BEGIN
    INSERT INTO validation_counts_by_hour (hour, attempts, successful)
      VALUES (NEW.timestamp / ${sql.lit(HOUR_MS)}, 1, NEW.successful)
      ON CONFLICT (${key}) DO UPDATE SET attempts = attempts + 1, successful = successful + excluded.successful;
  END`.execute(db);
  await sql`CREATE TRIGGER validation_counts_on_delete AFTER DELETE ON validation_attempts BEGIN
    UPDATE validation_counts_by_hour SET attempts = attempts - 1, successful = successful - OLD.successful
      WHERE hour = OLD.timestamp / ${sql.lit(HOUR_MS)};
  END`.execute(db);
}

async function postgresShardedFunctions(db: Kysely<any>): Promise<void> {
  const shard = sql`pg_backend_pid() % ${sql.lit(COUNTER_SHARDS)}`;
  await sql`CREATE OR REPLACE FUNCTION validation_counts_on_insert() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      INSERT INTO validation_counts_by_hour (hour, shard, attempts, successful)
        SELECT "timestamp" / ${sql.lit(HOUR_MS)}, ${shard}, count(*), sum(successful) FROM new_rows GROUP BY 1 ORDER BY 1
        ON CONFLICT (hour, shard) DO UPDATE SET attempts = validation_counts_by_hour.attempts + excluded.attempts,
          successful = validation_counts_by_hour.successful + excluded.successful;
      RETURN NULL;
    END $$`.execute(db);
  await sql`CREATE OR REPLACE FUNCTION validation_counts_on_delete() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      INSERT INTO validation_counts_by_hour (hour, shard, attempts, successful)
        SELECT "timestamp" / ${sql.lit(HOUR_MS)}, ${shard}, -count(*), -sum(successful) FROM old_rows GROUP BY 1 ORDER BY 1
        ON CONFLICT (hour, shard) DO UPDATE SET attempts = validation_counts_by_hour.attempts + excluded.attempts,
          successful = validation_counts_by_hour.successful + excluded.successful;
      RETURN NULL;
    END $$`.execute(db);
}

export async function up(db: Kysely<any>): Promise<void> {
  if (isSqlite(db)) return sqliteCounters(db, true);
  await sql`ALTER TABLE validation_counts_by_hour ADD COLUMN shard smallint NOT NULL DEFAULT 0`.execute(db);
  await sql`ALTER TABLE validation_counts_by_hour DROP CONSTRAINT validation_counts_by_hour_pkey`.execute(db);
  await sql`ALTER TABLE validation_counts_by_hour ADD PRIMARY KEY (hour, shard)`.execute(db);
  await postgresShardedFunctions(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  if (isSqlite(db)) return sqliteCounters(db, false);
  // Shards summed back into one row per hour, and 0014a's functions restored.
  await sql`CREATE TEMP TABLE counts_by_hour AS
    SELECT hour, sum(attempts) AS attempts, sum(successful) AS successful FROM validation_counts_by_hour GROUP BY hour`.execute(db);
  await sql`DELETE FROM validation_counts_by_hour`.execute(db);
  await sql`ALTER TABLE validation_counts_by_hour DROP CONSTRAINT validation_counts_by_hour_pkey`.execute(db);
  await sql`ALTER TABLE validation_counts_by_hour DROP COLUMN shard`.execute(db);
  await sql`ALTER TABLE validation_counts_by_hour ADD PRIMARY KEY (hour)`.execute(db);
  await sql`INSERT INTO validation_counts_by_hour SELECT hour, attempts, successful FROM counts_by_hour`.execute(db);
  await sql`DROP TABLE counts_by_hour`.execute(db);
  await sql`CREATE OR REPLACE FUNCTION validation_counts_on_insert() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      INSERT INTO validation_counts_by_hour (hour, attempts, successful)
        SELECT "timestamp" / ${sql.lit(HOUR_MS)}, count(*), sum(successful) FROM new_rows GROUP BY 1 ORDER BY 1
        ON CONFLICT (hour) DO UPDATE SET attempts = validation_counts_by_hour.attempts + excluded.attempts,
          successful = validation_counts_by_hour.successful + excluded.successful;
      RETURN NULL;
    END $$`.execute(db);
  await sql`CREATE OR REPLACE FUNCTION validation_counts_on_delete() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      UPDATE validation_counts_by_hour AS c SET attempts = c.attempts - d.attempts, successful = c.successful - d.successful
        FROM (SELECT "timestamp" / ${sql.lit(HOUR_MS)} AS hour, count(*) AS attempts, sum(successful) AS successful
              FROM old_rows GROUP BY 1 ORDER BY 1) AS d
        WHERE c.hour = d.hour;
      RETURN NULL;
    END $$`.execute(db);
}
