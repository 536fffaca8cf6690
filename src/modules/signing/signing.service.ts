// Rotation that strands no installed client (Master Admin): a new key is created as `next`
// (published, never signs), activated as its own step, and the old key, retired, keeps
// signing for clients that pin only it until it is deleted. Audit entries carry the public
// part and kid only, never the private key.
import type { Db } from '../../db/database.js';
import type { Storage } from '../../db/storage/storage.js';
import type { SigningKeysTable } from '../../db/schema.js';
import { conflict, notFound } from '../../http/errors.js';
import { recordAudit } from '../audit/audit.service.js';
import { generateSigningKeyPem, signingKeyFromPem, type SigningKey } from './key-material.js';
import * as repo from './signing.repository.js';
import type { SigningKeyView } from './signing.schemas.js';
import { clock } from '../../lib/clock.js';

const CONFIGURED = 'SIGNING_KEY is configured: the configuration owns the signing key';

/** This instance's own latest signing (not yet written) or the stored one, whichever is later. */
export type LastSignedHere = (kid: string) => number | null;

const latest = (stored: number | null, here: number | null) => (stored === null ? here : here === null ? stored : Math.max(stored, here));

const toView = (row: SigningKeysTable, configured: SigningKey | null, lastSignedHere: LastSignedHere = () => null): SigningKeyView => {
  // With SIGNING_KEY configured every stored key is retired in effect.
  const state = configured && row.slot === repo.CURRENT ? 'retired' : repo.stateOf(row);
  return {
    kid: row.kid,
    createdAtEpochMillis: row.created_at,
    retiredAtEpochMillis: row.retired_at,
    lastSignedAtEpochMillis: latest(row.last_signed_at, lastSignedHere(row.kid)),
    current: state === 'current',
    state,
  };
};

/** Newest first; a configured key is listed first as the current one (it is not stored). */
export async function listSigningKeys(
  db: Db,
  configured: SigningKey | null,
  startedAt: number,
  lastSignedHere: LastSignedHere,
): Promise<SigningKeyView[]> {
  const stored = (await repo.listKeys(db)).filter((row) => row.kid !== configured?.kid).map((row) => toView(row, configured, lastSignedHere));
  if (!configured) return stored;
  const lastSignedAtEpochMillis = lastSignedHere(configured.kid); // not stored: this instance's memory
  return [{ kid: configured.kid, createdAtEpochMillis: startedAt, retiredAtEpochMillis: null, lastSignedAtEpochMillis, current: true, state: 'current' }, ...stored];
}

const LOCK = 'signing-keys.rotate';

/** Retires the current key (the step both ways of activating share); returns its kid. */
async function activate(trx: Db, now: number): Promise<string | null> {
  const previous = await repo.findCurrent(trx);
  await repo.retireCurrent(trx, now);
  return previous?.kid ?? null;
}

/**
 * Creates a key: `next` (published, never signs), or with `activateNow` current at once,
 * retiring the current one (a leaked key). One next key at a time.
 */
export async function createSigningKey(
  trx: Db,
  storage: Pick<Storage, 'lock'>,
  actor: string,
  configured: SigningKey | null,
  activateNow: boolean,
): Promise<SigningKeyView> {
  if (configured) throw conflict(CONFIGURED);
  // Concurrent creations and activations apply one after the other.
  await storage.lock(trx, LOCK);
  const now = clock.now();
  if (!activateNow && (await repo.findNext(trx))) throw conflict('A next key exists already: activate or delete it first');
  const pem = generateSigningKeyPem();
  const key = signingKeyFromPem(pem);
  const retiredKid = activateNow ? await activate(trx, now) : null;
  const row: SigningKeysTable = {
    kid: key.kid,
    slot: activateNow ? repo.CURRENT : repo.NEXT,
    private_key: pem,
    public_x: key.x,
    created_at: now,
    retired_at: null,
    last_signed_at: null,
  };
  await repo.insertKey(trx, row);
  if (activateNow) await recordAudit(trx, actor, 'signingKey.rotate', { kid: key.kid, x: key.x, retiredKid });
  else await recordAudit(trx, actor, 'signingKey.create', { kid: key.kid, x: key.x, state: 'next' });
  return toView(row, null);
}

/** Makes the next key `kid` current and retires the current one. */
export async function activateSigningKey(
  trx: Db,
  storage: Pick<Storage, 'lock'>,
  actor: string,
  kid: string,
  configured: SigningKey | null,
): Promise<SigningKeyView> {
  if (configured) throw conflict(CONFIGURED);
  await storage.lock(trx, LOCK);
  const row = await repo.findKey(trx, kid);
  if (!row) throw notFound('Signing key not found');
  const state = repo.stateOf(row);
  if (state !== 'next') throw conflict(`Only a next key can be activated; this key is ${state}`);
  const retiredKid = await activate(trx, clock.now());
  await repo.promote(trx, kid);
  await recordAudit(trx, actor, 'signingKey.activate', { kid, x: row.public_x, retiredKid });
  return toView({ ...row, slot: repo.CURRENT }, null);
}

export async function deleteSigningKey(trx: Db, actor: string, kid: string, configured: SigningKey | null): Promise<void> {
  if (configured?.kid === kid) throw conflict('The configured signing key cannot be deleted');
  const row = await repo.findKey(trx, kid);
  if (!row) throw notFound('Signing key not found');
  if (row.slot === repo.CURRENT && !configured) throw conflict('The current signing key cannot be deleted; activate another first');
  await repo.deleteKey(trx, kid);
  await recordAudit(trx, actor, 'signingKey.delete', { kid: row.kid, x: row.public_x });
}
