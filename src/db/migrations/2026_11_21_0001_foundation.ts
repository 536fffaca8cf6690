// Staff, roles, registration keys, the audit log and server settings.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('settings')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('value', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('staff')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('username', 'text', (c) => c.notNull().unique())
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('password_hash', 'text', (c) => c.notNull())
    .addColumn('active', 'integer', (c) => c.notNull())
    .addColumn('is_master_admin', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('roles')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('permissions', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('staff_roles')
    .addColumn('staff_id', 'text', (c) => c.notNull().references('staff.id').onDelete('cascade'))
    .addColumn('role_id', 'text', (c) => c.notNull().references('roles.id').onDelete('cascade'))
    .addColumn('position', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('staff_roles_pk', ['staff_id', 'role_id'])
    .execute();
  await db.schema.createIndex('staff_roles_role_idx').on('staff_roles').column('role_id').execute();

  await db.schema
    .createTable('registration_keys')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('key_hash', 'text', (c) => c.notNull().unique())
    .addColumn('note', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('created_by', 'text', (c) => c.notNull())
    .addColumn('used_at', 'bigint')
    .addColumn('used_by', 'text')
    .execute();

  await db.schema
    .createTable('audit_entries')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('performed_by', 'text', (c) => c.notNull())
    .addColumn('timestamp', 'bigint', (c) => c.notNull())
    .addColumn('data', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('audit_entries_timestamp_idx').on('audit_entries').columns(['timestamp', 'id']).execute();
  await db.schema.createIndex('audit_entries_name_idx').on('audit_entries').columns(['name', 'timestamp']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['audit_entries', 'registration_keys', 'staff_roles', 'roles', 'staff', 'settings']) {
    await db.schema.dropTable(table).execute();
  }
}
