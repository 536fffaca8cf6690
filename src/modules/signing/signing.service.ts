// Rotation and removal of signing keys (Master Admin). Audit entries carry the public part
// and kid only, never the private key.
import type { Db } from '../../db/database.js';
import type { Storage } from '../../db/storage/storage.js';
import type { SigningKeysTable } from '../../db/schema.js';
import { conflict, notFound } from '../../http/errors.js';
import { recordAudit } from '../audit/audit.service.js';
import { generateSigningKeyPem, signingKeyFromPem, type SigningKey } from './key-material.js';
import * as repo from './signing.repository.js';
import type { SigningKeyView } from './signing.schemas.js';

const CONFIGURED = 'SIGNING_KEY is configured: the configuration owns the signing key';

const toView = (row: SigningKeysTable, configured: SigningKey | null): SigningKeyView => ({
  kid: row.kid,
  createdAtEpochMillis: Number(row.created_at),
  retiredAtEpochMillis: row.retired_at === null ? null : Number(row.retired_at),
  current: !configured && row.slot === repo.CURRENT,
});

/** Newest first; a configured key is listed first as the current one (it is not stored). */
export async function listSigningKeys(db: Db, configured: SigningKey | null, startedAt: number): Promise<SigningKeyView[]> {
  const stored = (await repo.listKeys(db)).filter((row) => row.kid !== configured?.kid).map((row) => toView(row, configured));
  if (!configured) return stored;
  return [{ kid: configured.kid, createdAtEpochMillis: startedAt, retiredAtEpochMillis: null, current: true }, ...stored];
}

export async function rotateSigningKey(trx: Db, storage: Pick<Storage, 'lock'>, actor: string, configured: SigningKey | null): Promise<SigningKeyView> {
  if (configured) throw conflict(CONFIGURED);
  // Two rotations at once: the second waits and then retires the first one's new key.
  await storage.lock(trx, 'signing-keys.rotate');
  const now = Date.now();
  const previous = await repo.findCurrent(trx);
  await repo.retireCurrent(trx, now);
  const pem = generateSigningKeyPem();
  const key = signingKeyFromPem(pem);
  const row: SigningKeysTable = { kid: key.kid, slot: repo.CURRENT, private_key: pem, public_x: key.x, created_at: now, retired_at: null };
  await repo.insertKey(trx, row);
  await recordAudit(trx, actor, 'signingKey.rotate', { kid: key.kid, x: key.x, retiredKid: previous?.kid ?? null });
  return toView(row, null);
}

export async function deleteSigningKey(trx: Db, actor: string, kid: string, configured: SigningKey | null): Promise<void> {
  if (configured?.kid === kid) throw conflict('The configured signing key cannot be deleted');
  const row = await repo.findKey(trx, kid);
  if (!row) throw notFound('Signing key not found');
  // With SIGNING_KEY configured every stored key is retired in effect.
  if (row.slot === repo.CURRENT && !configured) throw conflict('The current signing key cannot be deleted; rotate first');
  await repo.deleteKey(trx, kid);
  await recordAudit(trx, actor, 'signingKey.delete', { kid: row.kid, x: row.public_x });
}
