// Safe by default (DECISIONS.md): a username may not look like another one. `staff.
// username_skeleton` holds the UTS #39 confusable skeleton of the username as registered
// (before case folding) under a unique index, so two racing registrations of look-alike
// names cannot both succeed. Accounts that already look alike keep working: the oldest of
// each group gets the skeleton (so nobody new can take a look-alike of it), the others
// keep NULL and `npm run cli -- doctor` reports them.
import type { Kysely } from 'kysely';
import { usernameSkeleton } from '../../modules/staff/usernames.js';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('staff').addColumn('username_skeleton', 'text').execute();
  const rows: { id: string; username: string }[] = await db
    .selectFrom('staff')
    .select(['id', 'username'])
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  const taken = new Set<string>();
  for (const row of rows) {
    const skeleton = usernameSkeleton(row.username);
    if (taken.has(skeleton)) continue;
    taken.add(skeleton);
    await db.updateTable('staff').set({ username_skeleton: skeleton }).where('id', '=', row.id).execute();
  }
  await db.schema.createIndex('staff_username_skeleton_unique').on('staff').column('username_skeleton').unique().execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('staff_username_skeleton_unique').execute();
  await db.schema.alterTable('staff').dropColumn('username_skeleton').execute();
}
