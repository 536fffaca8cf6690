// Staff access (issue #12): API tokens, login-token revocation (sign-out), password
// change time, and two-factor sign-in (TOTP secret, last used step, recovery codes).
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('api_tokens')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('staff_id', 'text', (c) => c.notNull().references('staff.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    // SHA-256 of the secret: the secret itself is shown once, at creation.
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('permissions', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint')
    .addColumn('last_used_at', 'bigint')
    .execute();
  await db.schema.createIndex('api_tokens_staff_idx').on('api_tokens').columns(['staff_id', 'created_at']).execute();

  // Signed-out login tokens, kept until the token would have expired anyway.
  await db.schema
    .createTable('revoked_tokens')
    .addColumn('jti', 'text', (c) => c.primaryKey())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('revoked_tokens_expires_idx').on('revoked_tokens').column('expires_at').execute();

  await db.schema.alterTable('staff').addColumn('password_changed_at', 'bigint').execute();
  await db.schema.alterTable('staff').addColumn('totp_secret', 'text').execute();
  await db.schema.alterTable('staff').addColumn('totp_enabled', 'integer', (c) => c.notNull().defaultTo(0)).execute();
  await db.schema.alterTable('staff').addColumn('totp_last_step', 'bigint').execute();

  await db.schema
    .createTable('staff_recovery_codes')
    .addColumn('staff_id', 'text', (c) => c.notNull().references('staff.id').onDelete('cascade'))
    .addColumn('code_hash', 'text', (c) => c.notNull())
    .addColumn('used_at', 'bigint')
    .addPrimaryKeyConstraint('staff_recovery_codes_pk', ['staff_id', 'code_hash'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('staff_recovery_codes').execute();
  for (const column of ['totp_last_step', 'totp_enabled', 'totp_secret', 'password_changed_at']) {
    await db.schema.alterTable('staff').dropColumn(column).execute();
  }
  await db.schema.dropTable('revoked_tokens').execute();
  await db.schema.dropTable('api_tokens').execute();
}
