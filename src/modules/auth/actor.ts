// Who is making a request, with the permissions read fresh from the database.
import type { Db } from '../../db/database.js';
import type { StaffTable } from '../../db/schema.js';
import { rolesOfStaff } from '../staff/staff.repository.js';
import { WILDCARD } from '../roles/permissions.js';

/** How the caller proved who they are. */
export type Credential =
  | { kind: 'login'; jti: string; expiresAtSeconds: number }
  | { kind: 'basic' }
  | { kind: 'apiToken'; tokenId: string };

export interface Actor {
  id: string;
  username: string;
  isMasterAdmin: boolean;
  /** Union of the roles' permissions, in role order; ["*"] for the Master Admin. */
  permissions: string[];
  /** Role names joined by ", "; "Master Admin" for the Master Admin. */
  roleNames: string;
  /** Set by authentication; absent on actors built for other uses (e.g. login). */
  credential?: Credential;
}

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
