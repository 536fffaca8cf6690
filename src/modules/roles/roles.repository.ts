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
