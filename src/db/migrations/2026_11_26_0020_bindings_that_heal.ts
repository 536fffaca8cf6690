// Bindings that heal (DECISIONS.md): each bound IP and HWID remembers when it was bound
// and last presented by a successful validation; products and licenses gain the
// inactivity timeout and the self-service release limit (null: the seed's behaviour);
// self_releases keeps each counted self-release for the rolling 30-day limit.
// Existing bindings: first seen = the license's creation, last seen = their latest
// successful attempt still in the history, else the moment of this migration (so that
// turning a timeout on never frees a binding nobody has had a chance to see).
import { sql, type Kysely } from 'kysely';

const KINDS = [
  ['license_ips', 'ip'],
  ['license_hwids', 'hwid'],
] as const;

export async function up(db: Kysely<any>): Promise<void> {
  const now = Date.now();
  for (const [table, column] of KINDS) {
    await db.schema.alterTable(table).addColumn('first_seen_at', 'bigint', (c) => c.notNull().defaultTo(0)).execute();
    await db.schema.alterTable(table).addColumn('last_seen_at', 'bigint', (c) => c.notNull().defaultTo(0)).execute();
    await sql`
      UPDATE ${sql.table(table)} SET
        first_seen_at = (SELECT l.created_at FROM licenses l WHERE l.id = ${sql.table(table)}.license_id),
        last_seen_at = coalesce(
          (SELECT max(a.timestamp) FROM validation_attempts a
            WHERE a.license_id = ${sql.table(table)}.license_id AND a.${sql.ref(column)} = ${sql.table(table)}.${sql.ref(column)}
              AND a.successful = 1),
          ${now})`.execute(db);
  }
  for (const table of ['products', 'licenses']) {
    await db.schema.alterTable(table).addColumn('slot_timeout_minutes', 'integer').execute();
    await db.schema.alterTable(table).addColumn('self_release_limit', 'integer').execute();
  }
  await db.schema
    .createTable('self_releases')
    .addColumn('license_id', 'text', (c) => c.notNull().references('licenses.id').onDelete('cascade'))
    .addColumn('released_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('self_releases_by_license').on('self_releases').columns(['license_id', 'released_at']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('self_releases').execute();
  for (const table of ['products', 'licenses']) {
    await db.schema.alterTable(table).dropColumn('self_release_limit').execute();
    await db.schema.alterTable(table).dropColumn('slot_timeout_minutes').execute();
  }
  for (const [table] of KINDS) {
    await db.schema.alterTable(table).dropColumn('last_seen_at').execute();
    await db.schema.alterTable(table).dropColumn('first_seen_at').execute();
  }
}
