// Compact JWS verification (EdDSA / Ed25519) against pinned public keys only.
import { createPublicKey, verify, type KeyObject } from 'node:crypto';

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

export type JwsType = 'validation-receipt' | 'license-file';

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
      const header = JSON.parse(decodeBase64url(h).toString('utf8')) as Record<string, unknown>;
      if (header.alg !== 'EdDSA' || header.typ !== typ || typeof header.kid !== 'string') return null;
      const key = this.byKid.get(header.kid);
      if (!key || !verify(null, Buffer.from(`${h}.${p}`), key, decodeBase64url(s))) return null;
      const payload: unknown = JSON.parse(decodeBase64url(p).toString('utf8'));
      return payload !== null && typeof payload === 'object' && !Array.isArray(payload) ? (payload as Record<string, unknown>) : null;
    } catch {
      return null;
    }
  }
}
