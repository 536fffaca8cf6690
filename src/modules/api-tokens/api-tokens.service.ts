// API tokens for automation: `lst_` + 32 random bytes (base64url), stored as SHA-256.
// A fast hash is right here: the secret has 256 random bits, so nobody can guess it
// back from the hash, and lookup by hash costs one index read per request.
import type { Db } from '../../db/database.js';
import type { ApiTokensTable } from '../../db/schema.js';
import { badRequest, notFound } from '../../http/errors.js';
import { newId } from '../../lib/ids.js';
import { randomToken, safeEqual, sha256Hex } from '../../lib/secrets.js';
import { recordAudit } from '../audit/audit.service.js';
import type { Actor } from '../../http/actor.js';
import { actorFromStaff } from '../auth/actor.js';
import { PERMISSIONS, WILDCARD } from '../roles/permissions.js';
import { findStaffById } from '../staff/staff.repository.js';
import * as repo from './api-tokens.repository.js';
import type { ApiTokenView, CreateApiTokenBody } from './api-tokens.schemas.js';
import { MINUTE_MS } from '../../lib/time.js';
import { clock } from '../../lib/clock.js';

export const API_TOKEN_PREFIX = 'lst_';
/** lastUsedAt is written at most this often per token. */
export const LAST_USED_INTERVAL_MS = MINUTE_MS;

export const isApiToken = (bearer: string): boolean => bearer.startsWith(API_TOKEN_PREFIX);

const toView = (row: ApiTokensTable): ApiTokenView => ({
  id: row.id,
  name: row.name,
  permissions: JSON.parse(row.permissions) as string[],
  createdAtEpochMillis: row.created_at,
  expiresAtEpochMillis: row.expires_at,
  lastUsedAtEpochMillis: row.last_used_at,
});

const KNOWN = new Set<string>([...PERMISSIONS, WILDCARD]);

/** A token may carry only permissions its owner holds ("*" only for the Master Admin). */
function assertGrantable(actor: Actor, permissions: readonly string[]): void {
  for (const permission of permissions) {
    if (!KNOWN.has(permission)) throw badRequest(`Unknown permission: ${permission}`);
    if (!actor.isMasterAdmin && !actor.permissions.includes(permission)) {
      throw badRequest(`permissions must be a subset of your own; you do not hold ${permission}`);
    }
  }
}

export async function createApiToken(db: Db, actor: Actor, body: CreateApiTokenBody): Promise<ApiTokenView & { token: string }> {
  const permissions = [...new Set(body.permissions)];
  assertGrantable(actor, permissions);
  const now = clock.now();
  if (body.expiresAtEpochMillis !== null && body.expiresAtEpochMillis <= now) {
    throw badRequest('expiresAtEpochMillis must be in the future (or null for no expiry)');
  }
  const token = API_TOKEN_PREFIX + randomToken(32);
  const row: ApiTokensTable = {
    id: newId(),
    staff_id: actor.id,
    name: body.name,
    token_hash: sha256Hex(token),
    permissions: JSON.stringify(permissions),
    created_at: now,
    expires_at: body.expiresAtEpochMillis,
    last_used_at: null,
  };
  const view = toView(row);
  await db.transaction().execute(async (trx) => {
    await repo.insertToken(trx, row);
    await recordAudit(trx, actor.username, 'apiToken.create', view);
  });
  return { ...view, token };
}

export async function listApiTokens(db: Db, actor: Actor): Promise<ApiTokenView[]> {
  return (await repo.listTokensOfStaff(db, actor.id)).map(toView);
}

export async function revokeApiToken(db: Db, actor: Actor, id: string): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const row = await repo.findTokenOfStaff(trx, actor.id, id);
    if (!row) throw notFound('API token not found');
    await repo.deleteToken(trx, id);
    await recordAudit(trx, actor.username, 'apiToken.revoke', toView(row));
  });
}

/**
 * The caller behind an API token, or null when it is unknown, expired, or its owner is
 * gone or inactive. Its permissions are the token's ∩ the owner's current ones.
 */
export async function actorFromApiToken(db: Db, token: string): Promise<Actor | null> {
  const tokenHash = sha256Hex(token);
  const row = await repo.findTokenByHash(db, tokenHash);
  // The lookup matched by hash already; compare again in constant time so the answer
  // never depends on a database's early-exit comparison.
  if (!row || !safeEqual(row.token_hash, tokenHash)) return null;
  const now = clock.now();
  if (row.expires_at !== null && row.expires_at <= now) return null;
  const owner = await findStaffById(db, row.staff_id);
  if (!owner || owner.active !== 1) return null;
  const ownerActor = await actorFromStaff(db, owner);
  const granted = JSON.parse(row.permissions) as string[];
  const isMasterAdmin = ownerActor.isMasterAdmin && granted.includes(WILDCARD);
  const permissions = isMasterAdmin
    ? [WILDCARD]
    : granted.filter((p) => p !== WILDCARD && (ownerActor.isMasterAdmin || ownerActor.permissions.includes(p)));
  await repo.touchToken(db, row.id, now, LAST_USED_INTERVAL_MS);
  return {
    id: owner.id,
    username: owner.username,
    isMasterAdmin,
    permissions,
    roleNames: ownerActor.roleNames,
    credential: { kind: 'apiToken', tokenId: row.id },
  };
}
