// GET /licenses/stats counts attempts since a time across all licenses. Without an index
// that is a scan of the whole table: ~1.2 s for 10 M rows on SQLite, where it blocks the
// event loop (validation included). (timestamp, successful) covers the query, so it reads
// only the window's rows, from the index alone. Validation pays one more append-mostly
// index write per attempt (measured with npm run bench; see docs/decisions.md).
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createIndex('validation_attempts_stats_idx')
    .on('validation_attempts')
    .columns(['timestamp', 'successful'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('validation_attempts_stats_idx').execute();
}
