import type { Db } from '../../db/database.js';
import type { RolesTable } from '../../db/schema.js';

export const findRole = (db: Db, id: string) =>
  db.selectFrom('roles').selectAll().where('id', '=', id).executeTakeFirst();

export const listRoles = (db: Db) => db.selectFrom('roles').selectAll().orderBy('created_at').orderBy('id').execute();

/** Which of `ids` exist. */
export async function existingRoleIds(db: Db, ids: readonly string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await db.selectFrom('roles').select('id').where('id', 'in', ids).execute();
  return new Set(rows.map((r) => r.id));
}

export const insertRole = (trx: Db, row: RolesTable) => trx.insertInto('roles').values(row).execute();

export async function updateRole(trx: Db, id: string, values: Pick<RolesTable, 'name' | 'permissions'>): Promise<boolean> {
  const result = await trx.updateTable('roles').set(values).where('id', '=', id).executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** Deletes the role; its assignments go with it (ON DELETE CASCADE). */
export async function deleteRole(trx: Db, id: string): Promise<boolean> {
  await trx.deleteFrom('staff_roles').where('role_id', '=', id).execute();
  const result = await trx.deleteFrom('roles').where('id', '=', id).executeTakeFirst();
  return result.numDeletedRows > 0n;
}

/** Whether the account is assigned the role. */
export const staffHoldsRole = async (db: Db, staffId: string, roleId: string): Promise<boolean> =>
  (await db
    .selectFrom('staff_roles')
    .select('role_id')
    .where('staff_id', '=', staffId)
    .where('role_id', '=', roleId)
    .executeTakeFirst()) !== undefined;

/** The union of the roles' permissions, in role order then permission order. */
export async function permissionsOfRoles(db: Db, roleIds: readonly string[]): Promise<string[]> {
  if (roleIds.length === 0) return [];
  const rows = await db.selectFrom('roles').select(['id', 'permissions']).where('id', 'in', roleIds).execute();
  const byId = new Map(rows.map((r) => [r.id, JSON.parse(r.permissions) as string[]]));
  return [...new Set(roleIds.flatMap((id) => byId.get(id) ?? []))];
}
