// Who is making a request (http/actor.ts), with the permissions read fresh from the database.
import type { Db } from '../../db/database.js';
import type { StaffTable } from '../../db/schema.js';
import { rolesOfStaff } from '../staff/staff.repository.js';
import { WILDCARD } from '../roles/permissions.js';
import type { Actor } from '../../http/actor.js';

export async function actorFromStaff(db: Db, staff: StaffTable): Promise<Actor> {
  const base = { id: staff.id, username: staff.username };
  if (staff.is_master_admin === 1) {
    return { ...base, isMasterAdmin: true, permissions: [WILDCARD], roleNames: 'Master Admin' };
  }
  const roles = await rolesOfStaff(db, staff.id);
  const permissions = new Set<string>();
  for (const role of roles) for (const p of JSON.parse(role.permissions) as string[]) permissions.add(p);
  return { ...base, isMasterAdmin: false, permissions: [...permissions], roleNames: roles.map((r) => r.name).join(', ') };
}
