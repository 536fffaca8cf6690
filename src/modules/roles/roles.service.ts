import type { Db } from '../../db/database.js';
import type { RolesTable } from '../../db/schema.js';
import { notFound } from '../../http/errors.js';
import { newId } from '../../lib/ids.js';
import { recordAudit } from '../audit/audit.service.js';
import * as repo from './roles.repository.js';
import type { Role, RoleBody } from './roles.schemas.js';
import { clock } from '../../lib/clock.js';

const toRole = (row: RolesTable): Role => ({
  id: row.id,
  name: row.name,
  permissions: JSON.parse(row.permissions) as string[],
});

const unique = (values: readonly string[]) => [...new Set(values)];

export async function getRole(db: Db, id: string): Promise<Role> {
  const row = await repo.findRole(db, id);
  if (!row) throw notFound('Role not found');
  return toRole(row);
}

export async function listRoles(db: Db): Promise<Role[]> {
  return (await repo.listRoles(db)).map(toRole);
}

export async function createRole(trx: Db, actor: string, body: RoleBody): Promise<Role> {
  const row: RolesTable = {
    id: newId(),
    name: body.name,
    permissions: JSON.stringify(unique(body.permissions)),
    created_at: clock.now(),
  };
  await repo.insertRole(trx, row);
  const role = toRole(row);
  await recordAudit(trx, actor, 'roles.create', role);
  return role;
}

export async function updateRole(trx: Db, actor: string, id: string, body: RoleBody): Promise<Role> {
  const values = { name: body.name, permissions: JSON.stringify(unique(body.permissions)) };
  if (!(await repo.updateRole(trx, id, values))) throw notFound('Role not found');
  const role = { id, name: values.name, permissions: unique(body.permissions) };
  await recordAudit(trx, actor, 'roles.update', role);
  return role;
}

export async function deleteRole(trx: Db, actor: string, id: string): Promise<void> {
  const role = await getRole(trx, id);
  await repo.deleteRole(trx, id);
  await recordAudit(trx, actor, 'roles.delete', role);
}
