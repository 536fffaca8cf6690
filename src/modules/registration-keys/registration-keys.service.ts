// Single-use registration keys. Only a SHA-256 of each key is stored: the key itself
// is shown once, in the response that creates it.
import type { Db } from '../../db/database.js';
import type { RegistrationKeysTable } from '../../db/schema.js';
import { badRequest, conflict, forbidden, HttpError, notFound } from '../../http/errors.js';
import { newId } from '../../lib/ids.js';
import { randomToken, sha256Hex } from '../../lib/secrets.js';
import { recordAudit } from '../audit/audit.service.js';
import { existingRoleIds } from '../roles/roles.repository.js';
import * as repo from './registration-keys.repository.js';
import type { CreateKeyBody, RegistrationKeyView } from './registration-keys.schemas.js';
import { clock } from '../../lib/clock.js';

const INVALID_KEY = 'Invalid registration key';
const USED_KEY = 'This registration key has already been used';

const toView = (row: RegistrationKeysTable): RegistrationKeyView => {
  const roleIds = grantedRoleIds(row);
  return {
    id: row.id,
    note: row.note,
    createdAtEpochMillis: row.created_at,
    createdBy: row.created_by,
    usedAtEpochMillis: row.used_at,
    usedBy: row.used_by,
    // Only keys that restrict roles say so: a key without them answers as before.
    ...(roleIds === null ? {} : { roleIds }),
  };
};

/** The role ids a key grants, or null when it grants any (a key without roleIds). */
const grantedRoleIds = (row: RegistrationKeysTable): string[] | null =>
  row.role_ids === null || row.role_ids === undefined ? null : (JSON.parse(row.role_ids) as string[]);

export async function generateKey(trx: Db, actor: string, body: CreateKeyBody): Promise<RegistrationKeyView> {
  const roleIds = body.roleIds === undefined ? null : [...new Set(body.roleIds)];
  if (roleIds) {
    const existing = await existingRoleIds(trx, roleIds);
    const unknown = roleIds.filter((id) => !existing.has(id));
    if (unknown.length > 0) throw badRequest(`Unknown roleIds: ${unknown.join(', ')}`);
  }
  const key = randomToken(24); // 192 bits
  const row: RegistrationKeysTable = {
    id: newId(),
    key_hash: sha256Hex(key),
    note: body.note ?? null,
    created_at: clock.now(),
    created_by: actor,
    used_at: null,
    used_by: null,
    role_ids: roleIds === null ? null : JSON.stringify(roleIds),
  };
  await repo.insertKey(trx, row);
  const view = toView(row);
  await recordAudit(trx, actor, 'registrationKey.generate', view); // the key itself stays out of the log
  return { ...view, key };
}

export async function listKeys(db: Db): Promise<RegistrationKeyView[]> {
  return (await repo.listKeys(db)).map(toView);
}

/** Throws the documented 403 when the key is unknown (or revoked) or already used. */
export async function checkRegistrationKey(db: Db, key: string): Promise<void> {
  const row = await repo.findKeyByHash(db, sha256Hex(key));
  if (!row) throw new HttpError(403, INVALID_KEY);
  if (row.used_at !== null) throw new HttpError(403, USED_KEY);
}

/** Consumes the key atomically: of two racing registrations exactly one succeeds. */
export async function consumeRegistrationKey(trx: Db, key: string, username: string): Promise<void> {
  if (await repo.markKeyUsed(trx, sha256Hex(key), username, clock.now())) return;
  await checkRegistrationKey(trx, key); // explains why: unknown or used
  throw new HttpError(403, USED_KEY);
}

/**
 * A key that carries roleIds grants only those: a registration asking for another role
 * is refused (in the registration's transaction, so the key stays unused).
 */
export async function assertKeyGrants(trx: Db, key: string, roleIds: readonly string[]): Promise<void> {
  const row = await repo.findKeyByHash(trx, sha256Hex(key));
  const granted = row ? grantedRoleIds(row) : null;
  if (granted === null) return;
  const refused = roleIds.find((id) => !granted.includes(id));
  if (refused !== undefined) throw forbidden(`The registration key does not grant role ${refused}`);
}

export async function revokeKey(trx: Db, actor: string, id: string): Promise<void> {
  const row = await repo.findKeyById(trx, id);
  if (!row) throw notFound('Registration key not found');
  if (!(await repo.deleteUnusedKey(trx, id))) throw conflict(USED_KEY);
  await recordAudit(trx, actor, 'registrationKey.revoke', toView(row));
}
