// Polymart (DECISIONS.md "Polymart"): products carry the Polymart product id a purchase
// names, customers keep socials.PolymartID in a unique column (one customer per Polymart
// buyer, found without reading JSON), and every webhook delivery's nonce is stored with
// the answer it got, so that a redelivery is answered the same and does nothing.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  // ALTER TABLE … ADD COLUMN cannot add a UNIQUE constraint on SQLite: unique indexes instead.
  await db.schema.alterTable('products').addColumn('polymart_product_id', 'text').execute();
  await db.schema.createIndex('products_polymart_product_id_unique').on('products').column('polymart_product_id').unique().execute();

  await db.schema.alterTable('customers').addColumn('polymart_user_id', 'text').execute();
  await copyPolymartIds(db);
  await db.schema.createIndex('customers_polymart_user_id_unique').on('customers').column('polymart_user_id').unique().execute();

  await db.schema
    .createTable('polymart_nonces')
    .addColumn('nonce', 'text', (c) => c.primaryKey())
    // Written in the delivery's transaction before its work, completed at its end: a
    // concurrent delivery of the same nonce waits on this row and then reads the answer.
    .addColumn('status', 'integer')
    .addColumn('answer', 'text')
    .addColumn('received_at', 'bigint', (c) => c.notNull())
    .execute();
}

/** Customers given a PolymartID by hand before this migration: the oldest holder of an id keeps it. */
async function copyPolymartIds(db: Kysely<any>): Promise<void> {
  const rows: { id: string; socials: string }[] = await db
    .selectFrom('customers')
    .select(['id', 'socials'])
    .where('socials', 'like', '%PolymartID%')
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  const claimed = new Set<string>();
  for (const row of rows) {
    let id: unknown;
    try {
      id = (JSON.parse(row.socials) as Record<string, unknown>).PolymartID;
    } catch {
      continue;
    }
    if (typeof id !== 'string' || id === '' || claimed.has(id)) continue;
    claimed.add(id);
    await db.updateTable('customers').set({ polymart_user_id: id }).where('id', '=', row.id).execute();
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('polymart_nonces').execute();
  await db.schema.dropIndex('customers_polymart_user_id_unique').execute();
  await db.schema.alterTable('customers').dropColumn('polymart_user_id').execute();
  await db.schema.dropIndex('products_polymart_product_id_unique').execute();
  await db.schema.alterTable('products').dropColumn('polymart_product_id').execute();
}
