// Ed25519 keys that sign validation receipts and license files. `slot` is 'current' on the
// key in use and NULL on retired ones; its unique constraint lets instances that start
// together race to create the first key and end up with exactly one.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('signing_keys')
    .addColumn('kid', 'text', (c) => c.primaryKey())
    .addColumn('slot', 'text', (c) => c.unique())
    .addColumn('private_key', 'text', (c) => c.notNull())
    .addColumn('public_x', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('retired_at', 'bigint')
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('signing_keys').execute();
}
