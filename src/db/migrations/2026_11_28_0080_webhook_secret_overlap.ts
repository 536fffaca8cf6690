// A rotated webhook secret keeps signing beside the new one for a while (docs/webhooks.md):
// the receiver keeps accepting deliveries while its owner installs the new secret.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('webhook_endpoints').addColumn('previous_secret', 'text').execute();
  await db.schema.alterTable('webhook_endpoints').addColumn('previous_secret_until', 'bigint').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('webhook_endpoints').dropColumn('previous_secret_until').execute();
  await db.schema.alterTable('webhook_endpoints').dropColumn('previous_secret').execute();
}
