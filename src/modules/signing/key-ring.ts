// The signing keys as the request path sees them: the keys that may sign (the current one
// and the retired ones) cached in memory, re-read from the database at most once per
// REFRESH_MS, so an activation or deletion made on another instance is picked up within
// that time (the instance that made it sees it at once). Requests without a nonce never
// touch this.
import type { Db } from '../../db/database.js';
import { generateSigningKeyPem, publicJwk, signingKeyFromPem, type PublicJwk, type SigningKey } from './key-material.js';
import * as repo from './signing.repository.js';
import { MINUTE_MS } from '../../lib/time.js';
import { clock } from '../../lib/clock.js';

const REFRESH_MS = 1000;
/** A key's last signing time is written to the database at most this often per instance. */
export const LAST_SIGNED_PERSIST_MS = MINUTE_MS;
/** Receipt-Key-Ids beyond this many kids are ignored (a client pins a handful). */
const MAX_PINNED_KIDS = 16;

export interface KeyRing {
  /** The key configured in SIGNING_KEY, or null when keys live in the database. */
  readonly configured: SigningKey | null;
  /** The key that signs now. */
  current(): Promise<SigningKey>;
  /**
   * The key that signs a receipt for a client pinning `kids` (DECISIONS.md: rotation that
   * strands no installed client): the current key if the client lists it, else a retired key
   * it lists (in its order), else the current key. A next key never signs.
   */
  forClient(kids: readonly string[]): Promise<SigningKey>;
  /** Every published public key: the current one, the next one, then retired ones (newest first). */
  jwks(): Promise<{ keys: PublicJwk[] }>;
  /** Forgets the cached keys (after a change on this instance). */
  invalidate(): void;
  /**
   * Notes that `key` just signed: kept in memory (no I/O on the request path) and written to
   * the database at most once per LAST_SIGNED_PERSIST_MS, so the Master Admin can see when a
   * key last signed before deleting it.
   */
  signed(key: SigningKey, at?: number): void;
  /** When this instance last saw `kid` sign, or null. */
  lastSignedHere(kid: string): number | null;
  /** Writes the last signing times not yet written (at shutdown). */
  flush(): Promise<void>;
}

/** The kids a `Receipt-Key-Ids` header lists; anything malformed is ignored, never an error. */
export function pinnedKids(header: string | string[] | undefined): string[] {
  const text = Array.isArray(header) ? header.join(',') : header;
  if (!text) return [];
  return text
    .split(',', MAX_PINNED_KIDS)
    .map((kid) => kid.trim())
    .filter((kid) => /^[A-Za-z0-9_-]{1,128}$/.test(kid));
}

/** Creates the first stored key when none exists; instances racing here all end up with the same one. */
async function ensureStoredKey(db: Db): Promise<void> {
  if (await repo.findCurrent(db)) return;
  const pem = generateSigningKeyPem();
  const key = signingKeyFromPem(pem);
  await repo.insertCurrentIfNone(db, { kid: key.kid, slot: repo.CURRENT, private_key: pem, public_x: key.x, created_at: clock.now(), retired_at: null, last_signed_at: null });
}

interface Signable {
  current: SigningKey;
  retired: Map<string, SigningKey>;
}

const STATE_ORDER: Record<repo.KeyState, number> = { current: 0, next: 1, retired: 2 };

/**
 * Last signing time per kid, in memory, written through to the database at most once per
 * interval per kid. Writes happen off the request path; a failed write is reported and
 * retried with the next signature after the interval.
 */
function lastSignedTracker(db: Db, storedKid: (kid: string) => boolean, onError: (err: unknown) => void) {
  const lastSigned = new Map<string, number>();
  const persisted = new Map<string, number>();
  const writes = new Set<Promise<void>>();
  const write = (kid: string, at: number) => {
    persisted.set(kid, at);
    const pending = repo
      .recordLastSigned(db, kid, at)
      .then(() => undefined, onError)
      .finally(() => writes.delete(pending));
    writes.add(pending);
  };
  return {
    signed(kid: string, at: number) {
      if ((lastSigned.get(kid) ?? 0) < at) lastSigned.set(kid, at);
      if (!storedKid(kid)) return; // a configured key is not stored: memory only
      if (at - (persisted.get(kid) ?? -Infinity) >= LAST_SIGNED_PERSIST_MS) write(kid, at);
    },
    get: (kid: string) => lastSigned.get(kid) ?? null,
    async flush() {
      for (const [kid, at] of lastSigned) if (storedKid(kid) && (persisted.get(kid) ?? -Infinity) < at) write(kid, at);
      await Promise.all(writes);
    },
  };
}

export async function createKeyRing(db: Db, configuredPem: string | null, onError: (err: unknown) => void = () => {}): Promise<KeyRing> {
  const configured = configuredPem ? signingKeyFromPem(configuredPem) : null;
  if (!configured) await ensureStoredKey(db);

  /** Parsed keys by kid: a PEM is parsed once, however often the ring is re-read. */
  const parsed = new Map<string, SigningKey>();
  let cached: Signable | null = null;
  let loadedAt = 0;
  let loading: Promise<Signable> | null = null;

  const load = async (): Promise<Signable> => {
    let rows = await repo.listSignable(db);
    if (!rows.some((r) => r.slot === repo.CURRENT)) {
      await ensureStoredKey(db); // every key was removed by hand: start a new one
      rows = await repo.listSignable(db);
    }
    const keyOf = (row: (typeof rows)[number]) => {
      let key = parsed.get(row.kid);
      if (!key) parsed.set(row.kid, (key = signingKeyFromPem(row.private_key)));
      return key;
    };
    const retired = new Map(rows.filter((r) => r.slot !== repo.CURRENT).map((r) => [r.kid, keyOf(r)]));
    for (const kid of parsed.keys()) if (!retired.has(kid) && !rows.some((r) => r.kid === kid)) parsed.delete(kid); // deleted keys
    cached = { current: keyOf(rows.find((r) => r.slot === repo.CURRENT)!), retired };
    loadedAt = Date.now();
    return cached;
  };

  const lastSigned = lastSignedTracker(db, (kid) => kid !== configured?.kid, onError);

  const signable = async (): Promise<Signable> => {
    if (cached && Date.now() - loadedAt < REFRESH_MS) return cached;
    loading ??= load().finally(() => (loading = null));
    return loading;
  };

  return {
    configured,
    async current() {
      return configured ?? (await signable()).current;
    },
    async forClient(kids) {
      if (configured) return configured;
      const ring = await signable();
      if (kids.length === 0 || kids.includes(ring.current.kid)) return ring.current;
      for (const kid of kids) {
        const retired = ring.retired.get(kid);
        if (retired) return retired;
      }
      return ring.current;
    },
    async jwks() {
      const rows = await repo.listPublic(db);
      const stored = rows
        .filter((r) => r.kid !== configured?.kid)
        .map((r, newest) => ({ r, newest, rank: configured ? STATE_ORDER.retired : STATE_ORDER[repo.stateOf(r)] }))
        .sort((a, b) => a.rank - b.rank || a.newest - b.newest)
        .map(({ r }) => publicJwk(r.public_x));
      return { keys: configured ? [publicJwk(configured.x), ...stored] : stored };
    },
    invalidate() {
      loadedAt = 0;
    },
    signed(key, at = clock.now()) {
      lastSigned.signed(key.kid, at);
    },
    lastSignedHere: (kid) => lastSigned.get(kid),
    flush: () => lastSigned.flush(),
  };
}
