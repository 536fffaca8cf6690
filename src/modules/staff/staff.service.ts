import type { Db } from '../../db/database.js';
import type { StaffTable } from '../../db/schema.js';
import { badRequest, conflict, forbidden, notFound } from '../../http/errors.js';
import { isUniqueViolation } from '../../db/storage/errors.js';
import { newId } from '../../lib/ids.js';
import { hashPassword } from '../../lib/secrets.js';
import { recordAudit } from '../audit/audit.service.js';
import { existingRoleIds } from '../roles/roles.repository.js';
import { assertKeyGrants, checkRegistrationKey, consumeRegistrationKey } from '../registration-keys/registration-keys.service.js';
import * as repo from './staff.repository.js';
import type { RegisterBody, StaffView } from './staff.schemas.js';
import { usernameProblem } from './usernames.js';
import { clock } from '../../lib/clock.js';

const MIN_PASSWORD_LENGTH = 8;

const toView = (row: StaffTable, roleIds: string[]): StaffView => ({
  id: row.id,
  username: row.username,
  email: row.email,
  roleIds,
  active: row.active === 1,
  isMasterAdmin: row.is_master_admin === 1,
});

const unique = (values: readonly string[]) => [...new Set(values)];

async function findOrThrow(db: Db, id: string): Promise<StaffTable> {
  const row = await repo.findStaffById(db, id);
  if (!row) throw notFound('Staff account not found');
  return row;
}

/** The account as the API shows it (never with its password hash). */
export async function getStaff(db: Db, id: string): Promise<StaffView> {
  const row = await findOrThrow(db, id);
  const roleIds = await repo.roleIdsByStaff(db, [id]);
  return toView(row, roleIds.get(id) ?? []);
}

export async function listStaff(db: Db): Promise<StaffView[]> {
  const rows = await repo.listStaff(db);
  const roleIds = await repo.roleIdsByStaff(db, rows.map((r) => r.id));
  return rows.map((row) => toView(row, roleIds.get(row.id) ?? []));
}

async function assertRolesExist(db: Db, roleIds: readonly string[]): Promise<void> {
  const existing = await existingRoleIds(db, roleIds);
  const unknown = roleIds.filter((id) => !existing.has(id));
  if (unknown.length > 0) throw badRequest(`Unknown roleIds: ${unknown.join(', ')}`);
}

/** The Master Admin's roles, activation and existence are fixed. */
function assertChangeable(row: StaffTable): void {
  if (row.is_master_admin === 1) throw forbidden('The Master Admin account cannot be changed');
}

/**
 * Registers an account with a single-use key. Checks run in the documented order, and
 * a registration that fails for any reason leaves the key unused (one transaction).
 */
export async function register(db: Db, body: RegisterBody): Promise<StaffView> {
  await checkRegistrationKey(db, body.registrationKey);
  if ([...body.password].length < MIN_PASSWORD_LENGTH) {
    throw badRequest(`Password must be at least ${MIN_PASSWORD_LENGTH} characters`);
  }
  const problem = usernameProblem(body.username);
  if (problem) throw badRequest(problem);
  // Hash outside the transaction: it is slow and must not hold the database.
  const passwordHash = await hashPassword(body.password);
  const roleIds = unique(body.roleIds);
  const row: StaffTable = {
    id: newId(),
    username: body.username,
    email: body.email,
    password_hash: passwordHash,
    active: 1,
    is_master_admin: 0,
    created_at: clock.now(),
  };
  try {
    return await db.transaction().execute(async (trx) => {
      await consumeRegistrationKey(trx, body.registrationKey, body.username);
      if (await repo.findStaffByUsernameKey(trx, body.username)) throw conflict('Username already taken');
      await assertRolesExist(trx, roleIds);
      await assertKeyGrants(trx, body.registrationKey, roleIds);
      await repo.insertStaff(trx, row);
      await repo.replaceStaffRoles(trx, row.id, roleIds);
      const view = toView(row, roleIds);
      await recordAudit(trx, row.username, 'staff.create', view);
      return view;
    });
  } catch (err) {
    // Two registrations racing for one username: the unique index decides.
    if (isUniqueViolation(err)) throw conflict('Username already taken');
    throw err;
  }
}

export async function setActive(trx: Db, actor: string, id: string, active: boolean): Promise<StaffView> {
  const row = await findOrThrow(trx, id);
  assertChangeable(row);
  await repo.setStaffActive(trx, id, active);
  const view = await getStaff(trx, id);
  await recordAudit(trx, actor, 'staff.setActive', view);
  return view;
}

/** `authorize` checks the caller may grant the (existing) roles, before anything is written. */
export async function setRoles(
  trx: Db,
  actor: string,
  id: string,
  roleIds: readonly string[],
  authorize: (roleIds: readonly string[]) => Promise<void> = async () => {},
): Promise<StaffView> {
  const row = await findOrThrow(trx, id);
  assertChangeable(row);
  const wanted = unique(roleIds);
  await assertRolesExist(trx, wanted);
  await authorize(wanted);
  await repo.replaceStaffRoles(trx, id, wanted);
  const view = toView(row, wanted);
  await recordAudit(trx, actor, 'staff.setRoles', view);
  return view;
}

export async function deleteStaff(trx: Db, actor: string, id: string): Promise<void> {
  const view = await getStaff(trx, id);
  if (view.isMasterAdmin) throw forbidden('The Master Admin account cannot be changed');
  await repo.deleteStaff(trx, id);
  await recordAudit(trx, actor, 'staff.delete', view);
}

/** Creates a Master Admin account (start-up bootstrap). */
export async function createMasterAdmin(
  db: Db,
  account: { username: string; password: string; email: string | null },
): Promise<void> {
  const row: StaffTable = {
    id: newId(),
    username: account.username,
    email: account.email ?? `${account.username}@localhost`,
    password_hash: await hashPassword(account.password),
    active: 1,
    is_master_admin: 1,
    created_at: clock.now(),
  };
  await db.transaction().execute(async (trx) => {
    await repo.insertStaff(trx, row);
    await recordAudit(trx, row.username, 'staff.create', toView(row, []));
  });
}
