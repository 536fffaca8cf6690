// Revoking a license (DECISIONS.md): a revoked license is an expired one. These columns say
// that it was revoked, when and why, and keep the expiry the revocation replaced so that a
// reinstatement can put it back (it may be null: a perpetual license).
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('licenses').addColumn('revoked_at', 'bigint').execute();
  await db.schema.alterTable('licenses').addColumn('revoked_reason', 'text').execute();
  await db.schema.alterTable('licenses').addColumn('revoked_previous_expires_at', 'bigint').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const column of ['revoked_previous_expires_at', 'revoked_reason', 'revoked_at']) {
    await db.schema.alterTable('licenses').dropColumn(column).execute();
  }
}
