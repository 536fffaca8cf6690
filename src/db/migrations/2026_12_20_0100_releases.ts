// Releases (docs/releases.md): a product's versions per channel, their files stored in the
// database in chunks (so every instance serves every file, and backup, export and
// import carry them), each licensed download recorded; the version a validation names,
// recorded with its attempt; the product settings and license field of the access window;
// and a one-row counter every release change bumps, polled by each instance's version cache.
import { sql, type Kysely } from 'kysely';
import { dialectOf } from '../storage/dialect.js';

export async function up(db: Kysely<any>): Promise<void> {
  const bytes = dialectOf(db) === 'sqlite' ? 'blob' : 'bytea';

  await db.schema
    .createTable('release_files')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('size', 'bigint', (c) => c.notNull())
    .addColumn('sha256', 'text', (c) => c.notNull())
    .addColumn('chunk_size', 'integer', (c) => c.notNull())
    // `main` of the plugin descriptor (jars only)
    .addColumn('main_class', 'text')
    // JSON: where a jar's placeholders sit (src/lib/jars), so a download stamps without re-reading every entry
    .addColumn('jar_index', 'text')
    // null while the chunks are being written; a file never completed is removed
    .addColumn('completed_at', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('release_file_chunks')
    .addColumn('file_id', 'text', (c) => c.notNull().references('release_files.id').onDelete('cascade'))
    .addColumn('chunk_index', 'integer', (c) => c.notNull())
    .addColumn('data', bytes, (c) => c.notNull())
    .addPrimaryKeyConstraint('release_file_chunks_pk', ['file_id', 'chunk_index'])
    .execute();
  // Jars are compressed already: PostgreSQL stores the chunks out of line without trying again.
  if (bytes === 'bytea') await sql`ALTER TABLE release_file_chunks ALTER COLUMN data SET STORAGE EXTERNAL`.execute(db);

  await db.schema
    .createTable('releases')
    .addColumn('id', 'text', (c) => c.primaryKey())
    // no cascade: a product with releases is not deleted (409), its files are not lost by accident
    .addColumn('product_id', 'text', (c) => c.notNull().references('products.id'))
    .addColumn('version', 'text', (c) => c.notNull())
    .addColumn('channel', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('notes', 'text')
    .addColumn('file_id', 'text', (c) => c.references('release_files.id'))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('published_at', 'bigint')
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addUniqueConstraint('releases_product_channel_version', ['product_id', 'channel', 'version'])
    .execute();
  await db.schema.createIndex('releases_product_created').on('releases').columns(['product_id', 'created_at', 'id']).execute();
  await db.schema.createIndex('releases_product_published').on('releases').columns(['product_id', 'channel', 'published_at']).execute();

  await db.schema
    .createTable('release_downloads')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('release_id', 'text', (c) => c.notNull().references('releases.id').onDelete('cascade'))
    // kept when the license is deleted: a leaked jar still traces to the key it was sent to
    .addColumn('license_id', 'text', (c) => c.notNull())
    .addColumn('customer_id', 'text')
    .addColumn('ip', 'text', (c) => c.notNull())
    .addColumn('hwid', 'text')
    .addColumn('at', 'bigint', (c) => c.notNull())
    // of the bytes sent
    .addColumn('sha256', 'text', (c) => c.notNull())
    // the random value stamped into a jar (null: not a jar)
    .addColumn('nonce', 'text', (c) => c.unique())
    .execute();
  await db.schema.createIndex('release_downloads_release').on('release_downloads').columns(['release_id', 'at', 'id']).execute();

  await db.schema
    .createTable('release_versions_version')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('version', 'bigint', (c) => c.notNull())
    .execute();
  await db.insertInto('release_versions_version').values({ id: 1, version: 0 }).execute();

  // The version the client software named (null: none named).
  await db.schema.alterTable('validation_attempts').addColumn('client_version', 'text').execute();
  // Days of updates a sale includes (null: the license's expiry, none for a perpetual one).
  await db.schema.alterTable('products').addColumn('updates_for_days', 'integer').execute();
  // 1: validation refuses archived and unknown versions (null/0: it does not).
  await db.schema.alterTable('products').addColumn('refuse_unsupported_versions', 'integer').execute();
  // Releases published up to this moment are the license's (null: the expiry rule).
  await db.schema.alterTable('licenses').addColumn('updates_until', 'bigint').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('licenses').dropColumn('updates_until').execute();
  await db.schema.alterTable('products').dropColumn('refuse_unsupported_versions').execute();
  await db.schema.alterTable('products').dropColumn('updates_for_days').execute();
  await db.schema.alterTable('validation_attempts').dropColumn('client_version').execute();
  await db.schema.dropTable('release_versions_version').execute();
  await db.schema.dropTable('release_downloads').execute();
  await db.schema.dropTable('releases').execute();
  await db.schema.dropTable('release_file_chunks').execute();
  await db.schema.dropTable('release_files').execute();
}
