// Leak defence (DECISIONS.md "Blocklist and shared-key detection"): blocklist rules with
// their scope, mode and hit counters; a one-row version counter that every rule change
// bumps, so that each instance knows from one tiny read when to reload its in-memory index;
// the distinct IPs and HWIDs each license was presented from (one row per value, its last
// sighting), counted by the sharing detector; and the sharing alert settings and state.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('blocklist_rules')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('value', 'text', (c) => c.notNull())
    // '' (everything), 'product:<id>' or 'license:<id>': one non-null column for the unique key
    .addColumn('scope', 'text', (c) => c.notNull())
    .addColumn('product_id', 'text', (c) => c.references('products.id').onDelete('cascade'))
    .addColumn('license_id', 'text', (c) => c.references('licenses.id').onDelete('cascade'))
    .addColumn('mode', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'bigint')
    .addColumn('note', 'text')
    .addColumn('hits', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('last_hit_at', 'bigint')
    // when the last blocklist.hit event was queued: at most one a minute per rule, across instances
    .addColumn('last_event_at', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('created_by', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addUniqueConstraint('blocklist_rules_type_value_scope', ['type', 'value', 'scope'])
    .execute();
  await db.schema.createIndex('blocklist_rules_created').on('blocklist_rules').columns(['created_at', 'id']).execute();
  await db.schema.createIndex('blocklist_rules_license').on('blocklist_rules').column('license_id').execute();
  await db.schema.createIndex('blocklist_rules_product').on('blocklist_rules').column('product_id').execute();

  await db.schema
    .createTable('blocklist_version')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('version', 'bigint', (c) => c.notNull())
    .execute();
  await db.insertInto('blocklist_version').values({ id: 1, version: 0 }).execute();

  await db.schema
    .createTable('license_sightings')
    .addColumn('license_id', 'text', (c) => c.notNull().references('licenses.id').onDelete('cascade'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('last_seen_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('license_sightings_pk', ['license_id', 'kind', 'value'])
    .execute();
  await db.schema.createIndex('license_sightings_last_seen').on('license_sightings').column('last_seen_at').execute();

  // JSON {distinctIps?, distinctHwids?, windowHours}; null: off (product) / the product's (license)
  await db.schema.alterTable('products').addColumn('sharing_alert', 'text').execute();
  await db.schema.alterTable('licenses').addColumn('sharing_alert', 'text').execute();
  await db.schema.alterTable('licenses').addColumn('sharing_suspected_at', 'bigint').execute();
  // The detector's settings poll reads only the licenses that set their own alert.
  await db.schema.createIndex('licenses_sharing_alert').on('licenses').column('sharing_alert').execute();
  await db.schema.createIndex('licenses_sharing_suspected').on('licenses').column('sharing_suspected_at').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('licenses_sharing_suspected').execute();
  await db.schema.dropIndex('licenses_sharing_alert').execute();
  await db.schema.alterTable('licenses').dropColumn('sharing_suspected_at').execute();
  await db.schema.alterTable('licenses').dropColumn('sharing_alert').execute();
  await db.schema.alterTable('products').dropColumn('sharing_alert').execute();
  await db.schema.dropTable('license_sightings').execute();
  await db.schema.dropTable('blocklist_version').execute();
  await db.schema.dropTable('blocklist_rules').execute();
}
