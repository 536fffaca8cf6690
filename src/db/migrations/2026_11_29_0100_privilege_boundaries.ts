// Privilege boundaries (DECISIONS.md): registration keys may carry the roles they grant,
// and usernames are unique after NFKC and case folding. `staff.username_key` holds the
// folded username under a unique index. Accounts that already clash keep working: the
// oldest of each clashing group gets the key (so nobody new can take that name), the
// others keep NULL and `npm run cli -- doctor` reports them.
import type { Kysely } from 'kysely';
import { usernameKey } from '../../modules/staff/usernames.js';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('registration_keys').addColumn('role_ids', 'text').execute();
  await db.schema.alterTable('staff').addColumn('username_key', 'text').execute();

  const rows: { id: string; username: string }[] = await db
    .selectFrom('staff')
    .select(['id', 'username'])
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  const taken = new Set<string>();
  for (const row of rows) {
    const key = usernameKey(row.username);
    if (taken.has(key)) continue;
    taken.add(key);
    await db.updateTable('staff').set({ username_key: key }).where('id', '=', row.id).execute();
  }
  await db.schema.createIndex('staff_username_key_unique').on('staff').column('username_key').unique().execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('staff_username_key_unique').execute();
  await db.schema.alterTable('staff').dropColumn('username_key').execute();
  await db.schema.alterTable('registration_keys').dropColumn('role_ids').execute();
}
