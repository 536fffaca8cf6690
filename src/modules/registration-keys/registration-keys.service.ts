// Single-use registration keys. Only a SHA-256 of each key is stored: the key itself
// is shown once, in the response that creates it.
import type { Db } from '../../db/database.js';
import type { RegistrationKeysTable } from '../../db/schema.js';
import { conflict, HttpError, notFound } from '../../http/errors.js';
import { newId } from '../../lib/ids.js';
import { randomToken, sha256Hex } from '../../lib/secrets.js';
import { recordAudit } from '../audit/audit.service.js';
import * as repo from './registration-keys.repository.js';
import type { RegistrationKeyView } from './registration-keys.schemas.js';

const INVALID_KEY = 'Invalid registration key';
const USED_KEY = 'This registration key has already been used';

const toView = (row: RegistrationKeysTable): RegistrationKeyView => ({
  id: row.id,
  note: row.note,
  createdAtEpochMillis: row.created_at,
  createdBy: row.created_by,
  usedAtEpochMillis: row.used_at,
  usedBy: row.used_by,
});

export async function generateKey(trx: Db, actor: string, note: string | undefined): Promise<RegistrationKeyView> {
  const key = randomToken(24); // 192 bits
  const row: RegistrationKeysTable = {
    id: newId(),
    key_hash: sha256Hex(key),
    note: note ?? null,
    created_at: Date.now(),
    created_by: actor,
    used_at: null,
    used_by: null,
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
  if (await repo.markKeyUsed(trx, sha256Hex(key), username, Date.now())) return;
  await checkRegistrationKey(trx, key); // explains why: unknown or used
  throw new HttpError(403, USED_KEY);
}

export async function revokeKey(trx: Db, actor: string, id: string): Promise<void> {
  const row = await repo.findKeyById(trx, id);
  if (!row) throw notFound('Registration key not found');
  if (!(await repo.deleteUnusedKey(trx, id))) throw conflict(USED_KEY);
  await recordAudit(trx, actor, 'registrationKey.revoke', toView(row));
}
