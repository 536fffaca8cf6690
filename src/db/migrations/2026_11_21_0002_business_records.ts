// Customers, products, licenses (with bindings and validation attempts) and orders.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('customers')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('socials', 'text', (c) => c.notNull()) // JSON object of strings
    .addColumn('note', 'text')
    // socials.MarketplaceID, kept in its own unique column: one customer per marketplace buyer
    .addColumn('marketplace_user_id', 'text', (c) => c.unique())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('customers_email_idx').on('customers').column('email').execute();
  await db.schema.createIndex('customers_created_idx').on('customers').columns(['created_at', 'id']).execute();

  await db.schema
    .createTable('products')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('product_type', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('price', 'double precision', (c) => c.notNull())
    .addColumn('requires_license', 'integer', (c) => c.notNull())
    .addColumn('is_subscription', 'integer', (c) => c.notNull())
    .addColumn('recurring_period_days', 'integer')
    .addColumn('max_ips', 'integer')
    .addColumn('max_hwids', 'integer')
    .addColumn('marketplace_resource_id', 'text', (c) => c.unique())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('products_created_idx').on('products').columns(['created_at', 'id']).execute();

  await db.schema
    .createTable('licenses')
    .addColumn('id', 'text', (c) => c.primaryKey()) // the license key
    .addColumn('product_id', 'text', (c) => c.notNull().references('products.id'))
    .addColumn('customer_id', 'text', (c) => c.notNull().references('customers.id'))
    .addColumn('expires_at', 'bigint')
    .addColumn('max_ips', 'integer')
    .addColumn('max_hwids', 'integer')
    .addColumn('version', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('licenses_customer_idx').on('licenses').columns(['customer_id', 'product_id']).execute();
  await db.schema.createIndex('licenses_product_idx').on('licenses').column('product_id').execute();
  await db.schema.createIndex('licenses_created_idx').on('licenses').columns(['created_at', 'id']).execute();

  for (const [table, column] of [['license_ips', 'ip'], ['license_hwids', 'hwid']] as const) {
    await db.schema
      .createTable(table)
      .addColumn('license_id', 'text', (c) => c.notNull().references('licenses.id').onDelete('cascade'))
      .addColumn(column, 'text', (c) => c.notNull())
      .addColumn('position', 'integer', (c) => c.notNull()) // binding order
      .addPrimaryKeyConstraint(`${table}_pk`, ['license_id', column])
      .execute();
  }

  await db.schema
    .createTable('validation_attempts')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('license_id', 'text', (c) => c.notNull().references('licenses.id').onDelete('cascade'))
    .addColumn('hwid', 'text', (c) => c.notNull())
    .addColumn('ip', 'text', (c) => c.notNull())
    .addColumn('timestamp', 'bigint', (c) => c.notNull())
    .addColumn('successful', 'integer', (c) => c.notNull())
    .addColumn('reason', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('validation_attempts_license_idx')
    .on('validation_attempts')
    .columns(['license_id', 'timestamp', 'id'])
    .execute();
  await db.schema.createIndex('validation_attempts_timestamp_idx').on('validation_attempts').column('timestamp').execute();

  await db.schema
    .createTable('orders')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('customer_id', 'text', (c) => c.notNull().references('customers.id'))
    .addColumn('total_amount', 'double precision', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('orders_customer_idx').on('orders').column('customer_id').execute();
  await db.schema.createIndex('orders_created_idx').on('orders').columns(['created_at', 'id']).execute();

  await db.schema
    .createTable('order_products')
    .addColumn('order_id', 'text', (c) => c.notNull().references('orders.id').onDelete('cascade'))
    .addColumn('product_id', 'text', (c) => c.notNull().references('products.id'))
    .addColumn('position', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('order_products_pk', ['order_id', 'position'])
    .execute();
  await db.schema.createIndex('order_products_product_idx').on('order_products').column('product_id').execute();

  await db.schema
    .createTable('order_licenses')
    .addColumn('order_id', 'text', (c) => c.notNull().references('orders.id').onDelete('cascade'))
    .addColumn('license_id', 'text', (c) => c.notNull().references('licenses.id').onDelete('cascade'))
    .addColumn('position', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('order_licenses_pk', ['order_id', 'license_id'])
    .execute();
  await db.schema.createIndex('order_licenses_license_idx').on('order_licenses').column('license_id').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of [
    'order_licenses', 'order_products', 'orders', 'validation_attempts', 'license_hwids', 'license_ips',
    'licenses', 'products', 'customers',
  ]) {
    await db.schema.dropTable(table).execute();
  }
}
