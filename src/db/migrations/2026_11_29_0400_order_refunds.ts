// An order whose purchase was refunded (a marketplace refund or chargeback, or staff)
// keeps its amount as paid and says when it was refunded: revenue leaves it out.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('orders').addColumn('refunded_at', 'bigint').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('orders').dropColumn('refunded_at').execute();
}
