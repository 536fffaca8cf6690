// The signing keys as the request path sees them: the current key cached in memory, re-read
// from the database at most once per REFRESH_MS so that a rotation made on another instance
// is picked up within that time (the rotating instance sees it at once). Requests without a
// nonce never touch this.
import type { Db } from '../../db/database.js';
import { generateSigningKeyPem, publicJwk, signingKeyFromPem, type PublicJwk, type SigningKey } from './key-material.js';
import * as repo from './signing.repository.js';

const REFRESH_MS = 1000;

export interface KeyRing {
  /** The key configured in SIGNING_KEY, or null when keys live in the database. */
  readonly configured: SigningKey | null;
  /** The key that signs now. */
  current(): Promise<SigningKey>;
  /** Every published public key, the current one first. */
  jwks(): Promise<{ keys: PublicJwk[] }>;
  /** Forgets the cached key (after a rotation on this instance). */
  invalidate(): void;
}

/** Creates the first stored key when none exists; instances racing here all end up with the same one. */
async function ensureStoredKey(db: Db): Promise<void> {
  if (await repo.findCurrent(db)) return;
  const pem = generateSigningKeyPem();
  const key = signingKeyFromPem(pem);
  await repo.insertCurrentIfNone(db, { kid: key.kid, slot: repo.CURRENT, private_key: pem, public_x: key.x, created_at: Date.now(), retired_at: null });
}

export async function createKeyRing(db: Db, configuredPem: string | null): Promise<KeyRing> {
  const configured = configuredPem ? signingKeyFromPem(configuredPem) : null;
  if (!configured) await ensureStoredKey(db);

  let cached: SigningKey | null = configured;
  let loadedAt = 0;
  let loading: Promise<SigningKey> | null = null;

  const load = async (): Promise<SigningKey> => {
    let row = await repo.findCurrent(db);
    if (!row) {
      await ensureStoredKey(db); // every key was removed by hand: start a new one
      row = (await repo.findCurrent(db))!;
    }
    if (cached?.kid !== row.kid) cached = signingKeyFromPem(row.private_key);
    loadedAt = Date.now();
    return cached;
  };

  return {
    configured,
    async current() {
      if (configured) return configured;
      if (cached && Date.now() - loadedAt < REFRESH_MS) return cached;
      loading ??= load().finally(() => (loading = null));
      return loading;
    },
    async jwks() {
      const rows = await repo.listPublic(db);
      const stored = rows
        .filter((r) => r.kid !== configured?.kid)
        .sort((a, b) => Number(b.slot === repo.CURRENT) - Number(a.slot === repo.CURRENT))
        .map((r) => publicJwk(r.public_x));
      return { keys: configured ? [publicJwk(configured.x), ...stored] : stored };
    },
    invalidate() {
      loadedAt = 0;
    },
  };
}
