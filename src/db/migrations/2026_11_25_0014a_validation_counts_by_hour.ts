// GET /licenses/stats counted the attempts of its window on every request: at 100k
// licenses with 20 attempts each that was 675 ms on the thread that answers validations.
// validation_counts_by_hour keeps, per UTC hour (timestamp / 3600000), how many attempts
// the histories hold and how many of them validated. Triggers keep it current in the same
// transaction as every insert or delete of attempts, whichever path writes them
// (validation's group commit, PUT /licenses, pruning, a license's cascade delete), so the
// counts always equal a direct count of validation_attempts. An index on
// licenses.expires_at lets the active/expired figures count expired licenses from it.
import { sql, type Kysely } from 'kysely';
import { dialectOf } from '../storage/dialect.js';

const isSqlite = (db: Kysely<any>) => dialectOf(db) === 'sqlite';
const HOUR_MS = 3_600_000;

async function createSqliteTriggers(db: Kysely<any>): Promise<void> {
  // One upsert per row: SQLite has no statement-level triggers, and a row costs microseconds.
  await sql`CREATE TRIGGER validation_counts_on_insert AFTER INSERT ON validation_attempts BEGIN
    INSERT INTO validation_counts_by_hour (hour, attempts, successful)
      VALUES (NEW.timestamp / ${sql.lit(HOUR_MS)}, 1, NEW.successful)
      ON CONFLICT (hour) DO UPDATE SET attempts = attempts + 1, successful = successful + excluded.successful;
  END`.execute(db);
  await sql`CREATE TRIGGER validation_counts_on_delete AFTER DELETE ON validation_attempts BEGIN
    UPDATE validation_counts_by_hour SET attempts = attempts - 1, successful = successful - OLD.successful
      WHERE hour = OLD.timestamp / ${sql.lit(HOUR_MS)};
  END`.execute(db);
}

async function createPostgresTriggers(db: Kysely<any>): Promise<void> {
  // Statement-level with transition tables: a batch of 500 attempts is one upsert per hour,
  // taken in hour order (concurrent statements lock the counter rows in the same order).
  await sql`CREATE FUNCTION validation_counts_on_insert() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      INSERT INTO validation_counts_by_hour (hour, attempts, successful)
        SELECT "timestamp" / ${sql.lit(HOUR_MS)}, count(*), sum(successful) FROM new_rows GROUP BY 1 ORDER BY 1
        ON CONFLICT (hour) DO UPDATE SET attempts = validation_counts_by_hour.attempts + excluded.attempts,
          successful = validation_counts_by_hour.successful + excluded.successful;
      RETURN NULL;
    END $$`.execute(db);
  await sql`CREATE FUNCTION validation_counts_on_delete() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      UPDATE validation_counts_by_hour AS c SET attempts = c.attempts - d.attempts, successful = c.successful - d.successful
        FROM (SELECT "timestamp" / ${sql.lit(HOUR_MS)} AS hour, count(*) AS attempts, sum(successful) AS successful
              FROM old_rows GROUP BY 1 ORDER BY 1) AS d
        WHERE c.hour = d.hour;
      RETURN NULL;
    END $$`.execute(db);
  await sql`CREATE TRIGGER validation_counts_on_insert AFTER INSERT ON validation_attempts
    REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION validation_counts_on_insert()`.execute(db);
  await sql`CREATE TRIGGER validation_counts_on_delete AFTER DELETE ON validation_attempts
    REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION validation_counts_on_delete()`.execute(db);
}

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('validation_counts_by_hour')
    .addColumn('hour', 'bigint', (c) => c.primaryKey())
    .addColumn('attempts', 'bigint', (c) => c.notNull())
    .addColumn('successful', 'bigint', (c) => c.notNull())
    .execute();
  // Backfill from the attempts already kept; the triggers then keep the counts current.
  await sql`INSERT INTO validation_counts_by_hour (hour, attempts, successful)
    SELECT "timestamp" / ${sql.lit(HOUR_MS)}, count(*), sum(successful) FROM validation_attempts GROUP BY 1`.execute(db);
  if (isSqlite(db)) await createSqliteTriggers(db);
  else await createPostgresTriggers(db);
  await db.schema.createIndex('licenses_expires_at_idx').on('licenses').column('expires_at').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('licenses_expires_at_idx').execute();
  await sql`DROP TRIGGER validation_counts_on_insert ${isSqlite(db) ? sql`` : sql`ON validation_attempts`}`.execute(db);
  await sql`DROP TRIGGER validation_counts_on_delete ${isSqlite(db) ? sql`` : sql`ON validation_attempts`}`.execute(db);
  if (!isSqlite(db)) {
    await sql`DROP FUNCTION validation_counts_on_insert()`.execute(db);
    await sql`DROP FUNCTION validation_counts_on_delete()`.execute(db);
  }
  await db.schema.dropTable('validation_counts_by_hour').execute();
}
