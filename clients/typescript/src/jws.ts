// Compact JWS verification (EdDSA / Ed25519) against pinned public keys only.
import { createHash, createPublicKey, verify, type KeyObject } from 'node:crypto';

export interface Jwk {
  kty: string;
  crv: string;
  x: string;
  kid: string;
  alg?: string;
  use?: string;
}

export interface JwkSet {
  keys: Jwk[];
}

/** release-check: the signed answer of POST /releases/latest; download: the entry a stamped jar carries. */
export type JwsType = 'validation-receipt' | 'license-file' | 'release-check' | 'download';

/** Batch-signed receipts: the depth of every tree (so every path is TREE_DEPTH sibling hashes of 32 bytes). */
const TREE_DEPTH = 10;
const HASH_BYTES = 32;
const sha256 = (...parts: Buffer[]) => createHash('sha256').update(Buffer.concat(parts)).digest();

/**
 * Strict base64url (RFC 4648 section 5, no padding), as JWS requires: only the one canonical
 * encoding of some bytes decodes. Buffer's decoder alone skips bad characters and accepts a
 * last character with unused bits set, so two strings would decode to one signature or key.
 */
export function decodeBase64url(text: string): Buffer {
  if (!/^[A-Za-z0-9_-]*$/.test(text)) throw new Error('not base64url');
  const bytes = Buffer.from(text, 'base64url');
  if (bytes.toString('base64url') !== text) throw new Error('non-canonical base64url');
  return bytes;
}

/** Public keys by kid, parsed once. */
export class PinnedKeys {
  private readonly byKid = new Map<string, KeyObject>();

  constructor(jwks: JwkSet) {
    if (!jwks || !Array.isArray(jwks.keys) || jwks.keys.length === 0) throw new Error('the JWK Set has no keys');
    for (const jwk of jwks.keys) {
      if (jwk.kty !== 'OKP' || jwk.crv !== 'Ed25519' || typeof jwk.x !== 'string' || typeof jwk.kid !== 'string') continue;
      try {
        if (decodeBase64url(jwk.x).length !== 32) continue;
        this.byKid.set(jwk.kid, createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: jwk.x }, format: 'jwk' }));
      } catch {
        continue; // not a key this client can use
      }
    }
    if (this.byKid.size === 0) throw new Error('the JWK Set has no Ed25519 keys');
  }

  /** The kids of the pinned keys (sent as Receipt-Key-Ids, so the service signs with one of them). */
  get kids(): string[] {
    return [...this.byKid.keys()];
  }

  /** The payload when `jws` is signed by a pinned key with the expected `typ`; otherwise null. */
  verify(jws: string, typ: JwsType): Record<string, unknown> | null {
    const parts = jws.trim().split('.');
    if (parts.length !== 3) return null;
    const [h, p, s] = parts as [string, string, string];
    try {
      return this.signed(h, p, s, typ) ? objectOf(p) : null;
    } catch {
      return null;
    }
  }

  /**
   * The payload of a validation receipt in either form, when a pinned key signed it: the
   * compact JWS, or the batch form `hdr..sig~claims~idx~path` (typ validation-receipt+mt),
   * whose signature covers the root of a Merkle tree that this client recomputes from its
   * own claims: leaf SHA-256(0x00 ‖ claims), then per level, bit h of idx (least significant
   * first) 0: SHA-256(0x01 ‖ hash ‖ sibling), 1: SHA-256(0x01 ‖ sibling ‖ hash). The path must
   * be exactly 10 hashes and idx a canonical decimal below 1024, so one leaf has one proof.
   */
  verifyReceipt(receipt: string): Record<string, unknown> | null {
    const text = receipt.trim();
    if (!text.includes('~')) return this.verify(text, 'validation-receipt');
    const parts = text.split('~');
    if (parts.length !== 4) return null;
    const [jws, claims, idx, pathText] = parts as [string, string, string, string];
    const signature = jws.split('.');
    if (signature.length !== 3 || signature[1] !== '') return null; // the payload is detached: the root
    if (!/^(0|[1-9][0-9]{0,3})$/.test(idx) || Number(idx) >= 2 ** TREE_DEPTH) return null;
    try {
      const path = decodeBase64url(pathText);
      if (path.length !== TREE_DEPTH * HASH_BYTES) return null;
      decodeBase64url(claims); // canonical base64url only
      let hash = sha256(Buffer.from([0x00]), Buffer.from(claims, 'latin1'));
      for (let h = 0; h < TREE_DEPTH; h += 1) {
        const sibling = path.subarray(h * HASH_BYTES, (h + 1) * HASH_BYTES);
        hash = (Number(idx) >> h) & 1 ? sha256(Buffer.from([0x01]), sibling, hash) : sha256(Buffer.from([0x01]), hash, sibling);
      }
      return this.signed(signature[0]!, hash.toString('base64url'), signature[2]!, 'validation-receipt+mt') ? objectOf(claims) : null;
    } catch {
      return null;
    }
  }

  /** Whether `s` is a pinned key's EdDSA signature over `h.p` with header typ `typ` (throws on malformed parts). */
  private signed(h: string, p: string, s: string, typ: JwsType | 'validation-receipt+mt'): boolean {
    const header = JSON.parse(decodeBase64url(h).toString('utf8')) as Record<string, unknown>;
    if (header.alg !== 'EdDSA' || header.typ !== typ || typeof header.kid !== 'string') return false;
    const key = this.byKid.get(header.kid);
    return key !== undefined && verify(null, Buffer.from(`${h}.${p}`), key, decodeBase64url(s));
  }
}

/** The JSON object a base64url part holds (throws when it holds anything else). */
function objectOf(part: string): Record<string, unknown> | null {
  const payload: unknown = JSON.parse(decodeBase64url(part).toString('utf8'));
  return payload !== null && typeof payload === 'object' && !Array.isArray(payload) ? (payload as Record<string, unknown>) : null;
}
