// When each signing key last signed a receipt or license file (issue #28), so the Master
// Admin can judge when no installed copy needs a retired key any more. Written by the key
// ring at most once a minute per key and instance; null until a key has signed.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('signing_keys').addColumn('last_signed_at', 'bigint').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('signing_keys').dropColumn('last_signed_at').execute();
}
