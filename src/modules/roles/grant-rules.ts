// Who may grant what (DECISIONS.md, "Privilege boundaries"). SPEC.md lets roles:write
// define any role and staff:manage assign any role to others; what no one but the Master
// Admin may do is raise their own privileges. ROLE_GRANTS=subset adds Kubernetes RBAC's
// escalation rule: a caller grants only permissions it holds itself.
import type { Config } from '../../config.js';
import type { Db } from '../../db/database.js';
import { forbidden } from '../../http/errors.js';
import type { Actor } from '../../http/actor.js';
import { permissionsOfRoles, staffHoldsRole } from './roles.repository.js';

export const OWN_PRIVILEGES = 'You cannot change your own privileges';
export const cannotGrant = (missing: readonly string[]) => `Cannot grant permissions you do not hold: ${missing.join(', ')}`;

export type GrantMode = Config['roleGrants'];

/** PUT /roles/{id}: a role the caller holds is changed only by the Master Admin. */
export async function assertNotOwnRole(db: Db, actor: Actor, roleId: string): Promise<void> {
  if (!actor.isMasterAdmin && (await staffHoldsRole(db, actor.id, roleId))) throw forbidden(OWN_PRIVILEGES);
}

/** PUT /staff/{id}/roles: nobody changes their own role set. */
export function assertNotOwnAccount(actor: Actor, staffId: string): void {
  if (!actor.isMasterAdmin && actor.id === staffId) throw forbidden(OWN_PRIVILEGES);
}

/** In subset mode, every permission granted must be one the caller holds (an API token: the token's own). */
export function assertMayGrant(actor: Actor, mode: GrantMode, permissions: readonly string[]): void {
  if (mode === 'open' || actor.isMasterAdmin) return;
  const missing = [...new Set(permissions)].filter((p) => !actor.permissions.includes(p));
  if (missing.length > 0) throw forbidden(cannotGrant(missing));
}

/** In subset mode, the roles assigned may carry only permissions the caller holds. */
export async function assertMayAssign(db: Db, actor: Actor, mode: GrantMode, roleIds: readonly string[]): Promise<void> {
  if (mode === 'open' || actor.isMasterAdmin) return;
  assertMayGrant(actor, mode, await permissionsOfRoles(db, roleIds));
}
