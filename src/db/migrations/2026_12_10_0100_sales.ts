// Sales that carry the license's shape (docs/selling.md): products gain tiers (a child
// table whose marketplace ids are unique like the product's own), licenses their tier and
// whether they are a trial, orders what they bought (`kind`, `license_id`). A BuiltByBit
// purchase is remembered by its identity so that a redelivery does nothing, and the
// end-of-grace and trial-ending notices are sent once per license and expiry, as the
// expiry notices are. Existing rows keep today's behaviour: no tiers, no trials, orders `new`.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('product_tiers')
    .addColumn('product_id', 'text', (c) => c.notNull().references('products.id').onDelete('cascade'))
    .addColumn('code', 'text', (c) => c.notNull())
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('features', 'text')
    .addColumn('marketplace_resource_id', 'text')
    .addColumn('polymart_product_id', 'text')
    .addPrimaryKeyConstraint('product_tiers_pk', ['product_id', 'code'])
    .execute();
  await db.schema.createIndex('product_tiers_marketplace_resource_id_unique').on('product_tiers').column('marketplace_resource_id').unique().execute();
  await db.schema.createIndex('product_tiers_polymart_product_id_unique').on('product_tiers').column('polymart_product_id').unique().execute();

  await db.schema.alterTable('licenses').addColumn('tier', 'text').execute();
  await db.schema.alterTable('licenses').addColumn('trial', 'integer', (c) => c.notNull().defaultTo(0)).execute();

  await db.schema.alterTable('orders').addColumn('kind', 'text', (c) => c.notNull().defaultTo('new')).execute();
  await db.schema.alterTable('orders').addColumn('license_id', 'text', (c) => c.references('licenses.id').onDelete('set null')).execute();
  // As best known: the order's first license (most orders, the marketplace's all, hold one).
  await sql`UPDATE orders SET license_id = (
    SELECT ol.license_id FROM order_licenses ol WHERE ol.order_id = orders.id ORDER BY ol.position LIMIT 1)`.execute(db);
  await db.schema.createIndex('orders_license_id_idx').on('orders').column('license_id').execute();

  await db.schema
    .createTable('builtbybit_purchases')
    // resource, addon, user and purchase date: what makes one purchase one
    .addColumn('identity', 'text', (c) => c.primaryKey())
    .addColumn('answer', 'text')
    .addColumn('received_at', 'bigint', (c) => c.notNull())
    .execute();

  for (const table of ['license_grace_ended_notices', 'license_trial_ending_notices']) {
    await db.schema
      .createTable(table)
      .addColumn('license_id', 'text', (c) => c.notNull().references('licenses.id').onDelete('cascade'))
      .addColumn('expires_at', 'bigint', (c) => c.notNull())
      .addPrimaryKeyConstraint(`${table}_pk`, ['license_id', 'expires_at'])
      .execute();
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['license_trial_ending_notices', 'license_grace_ended_notices', 'builtbybit_purchases', 'product_tiers']) {
    await db.schema.dropTable(table).execute();
  }
  await db.schema.dropIndex('orders_license_id_idx').execute();
  for (const column of ['license_id', 'kind']) await db.schema.alterTable('orders').dropColumn(column).execute();
  for (const column of ['trial', 'tier']) await db.schema.alterTable('licenses').dropColumn(column).execute();
}
