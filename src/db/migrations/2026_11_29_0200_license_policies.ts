// License policies (DECISIONS.md "License policies"): products and licenses gain the expiry
// basis (fixed, from creation, from first validation) with its length, grace days, feature
// flags (JSON text; NULL reads as {}) and whether validation reveals its reason. Licenses
// also remember when their expiry clock started and when their expiry was last set (an
// expiry that was already past when it was set, such as a revocation, is never announced
// as `licenses.expired`). license_expired_notices makes that event once per license and
// expiry, also with several instances. Existing rows keep the seed's behaviour: basis
// fixed, nothing else set; their expiry counts as set now, so none already past is announced.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  const now = Date.now();
  for (const table of ['products', 'licenses']) {
    await db.schema.alterTable(table).addColumn('expiry_basis', 'text', (c) => c.notNull().defaultTo('fixed')).execute();
    await db.schema.alterTable(table).addColumn('valid_for_days', 'integer').execute();
    await db.schema.alterTable(table).addColumn('grace_days', 'integer').execute();
    await db.schema.alterTable(table).addColumn('features', 'text').execute();
  }
  await db.schema.alterTable('products').addColumn('reveal_reasons', 'integer', (c) => c.notNull().defaultTo(0)).execute();
  await db.schema.alterTable('licenses').addColumn('reveal_reasons', 'integer').execute();
  await db.schema.alterTable('licenses').addColumn('expiry_started_at', 'bigint').execute();
  await db.schema.alterTable('licenses').addColumn('expiry_set_at', 'bigint').execute();
  await sql`UPDATE licenses SET expiry_set_at = ${now}`.execute(db);
  await db.schema
    .createTable('license_expired_notices')
    .addColumn('license_id', 'text', (c) => c.notNull().references('licenses.id').onDelete('cascade'))
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('license_expired_notices_pk', ['license_id', 'expires_at'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('license_expired_notices').execute();
  for (const column of ['expiry_set_at', 'expiry_started_at', 'reveal_reasons']) await db.schema.alterTable('licenses').dropColumn(column).execute();
  await db.schema.alterTable('products').dropColumn('reveal_reasons').execute();
  for (const table of ['products', 'licenses']) {
    for (const column of ['features', 'grace_days', 'valid_for_days', 'expiry_basis']) await db.schema.alterTable(table).dropColumn(column).execute();
  }
}
