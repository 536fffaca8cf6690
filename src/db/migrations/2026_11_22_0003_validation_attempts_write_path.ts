// Validation writes one attempt per request and prunes old ones: every index on
// validation_attempts is paid on both. The timestamp-only index serves no query (history
// is always read and pruned per license through validation_attempts_license_idx).
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('validation_attempts_timestamp_idx').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex('validation_attempts_timestamp_idx').on('validation_attempts').column('timestamp').execute();
}
