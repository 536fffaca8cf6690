import type { Db } from '../../db/database.js';
import type { StaffTable } from '../../db/schema.js';
import { usernameKey, usernameSkeleton } from './usernames.js';

export const findStaffById = (db: Db, id: string) =>
  db.selectFrom('staff').selectAll().where('id', '=', id).executeTakeFirst();

export const findStaffByUsername = (db: Db, username: string) =>
  db.selectFrom('staff').selectAll().where('username', '=', username).executeTakeFirst();

/**
 * The account `username` would clash with, if any: the same key after NFKC and case
 * folding, the same UTS #39 skeleton (a look-alike), or the exact spelling.
 */
export const findStaffByUsernameKey = (db: Db, username: string) =>
  db
    .selectFrom('staff')
    .selectAll()
    .where((eb) =>
      eb.or([
        eb('username_key', '=', usernameKey(username)),
        eb('username_skeleton', '=', usernameSkeleton(username)),
        eb('username', '=', username),
      ]),
    )
    .orderBy('created_at')
    .executeTakeFirst();

export const listStaff = (db: Db) => db.selectFrom('staff').selectAll().orderBy('created_at').orderBy('id').execute();

export const masterAdminExists = async (db: Db) =>
  (await db.selectFrom('staff').select('id').where('is_master_admin', '=', 1).executeTakeFirst()) !== undefined;

/** Inserts the account with its folded username and skeleton (the unique indexes refuse a clash). */
export const insertStaff = (trx: Db, row: StaffTable) =>
  trx
    .insertInto('staff')
    .values({ ...row, username_key: usernameKey(row.username), username_skeleton: usernameSkeleton(row.username) })
    .execute();

export const setStaffActive = (trx: Db, id: string, active: boolean) =>
  trx.updateTable('staff').set({ active: active ? 1 : 0 }).where('id', '=', id).execute();

export const deleteStaff = (trx: Db, id: string) => trx.deleteFrom('staff').where('id', '=', id).execute();

/** Role ids per staff id, in assignment order, for all `staffIds` in one query. */
export async function roleIdsByStaff(db: Db, staffIds: readonly string[]): Promise<Map<string, string[]>> {
  const result = new Map<string, string[]>(staffIds.map((id) => [id, []]));
  if (staffIds.length === 0) return result;
  const rows = await db
    .selectFrom('staff_roles')
    .select(['staff_id', 'role_id'])
    .where('staff_id', 'in', staffIds)
    .orderBy('staff_id')
    .orderBy('position')
    .execute();
  for (const row of rows) result.get(row.staff_id)?.push(row.role_id);
  return result;
}

/** Replaces the account's role set, keeping the given order. */
export async function replaceStaffRoles(trx: Db, staffId: string, roleIds: readonly string[]): Promise<void> {
  await trx.deleteFrom('staff_roles').where('staff_id', '=', staffId).execute();
  if (roleIds.length === 0) return;
  await trx
    .insertInto('staff_roles')
    .values(roleIds.map((roleId, position) => ({ staff_id: staffId, role_id: roleId, position })))
    .execute();
}

/** Names and permission lists of the account's roles, in assignment order. */
export const rolesOfStaff = (db: Db, staffId: string) =>
  db
    .selectFrom('staff_roles')
    .innerJoin('roles', 'roles.id', 'staff_roles.role_id')
    .select(['roles.name', 'roles.permissions'])
    .where('staff_roles.staff_id', '=', staffId)
    .orderBy('staff_roles.position')
    .execute();

/** New password hash; `changedAt` ends the login tokens issued before it. */
export const setStaffPassword = (trx: Db, id: string, passwordHash: string, changedAt: number) =>
  trx.updateTable('staff').set({ password_hash: passwordHash, password_changed_at: changedAt }).where('id', '=', id).execute();
