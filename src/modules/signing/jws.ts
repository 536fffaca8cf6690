// Compact JWS (RFC 7515) signed with Ed25519 (RFC 8037).
import { createPublicKey, sign, verify } from 'node:crypto';
import type { JwsType, PublicJwk, SigningKey } from './key-material.js';

/** About 35 µs of CPU per call on an idle core here, synchronous (measured by npm run bench). */
export function signCompact(key: SigningKey, typ: JwsType, payload: object): string {
  const signingInput = `${key.headers[typ]}.${Buffer.from(JSON.stringify(payload)).toString('base64url')}`;
  return `${signingInput}.${sign(null, Buffer.from(signingInput), key.privateKey).toString('base64url')}`;
}

/**
 * The payload of a compact JWS of type `typ` signed by one of `keys` (a published JWK Set's),
 * or null when it is malformed, of another type, or not signed by any of them.
 */
export function verifyCompact(jws: string, typ: JwsType, keys: readonly PublicJwk[]): Record<string, unknown> | null {
  const parts = jws.trim().split('.');
  if (parts.length !== 3) return null;
  try {
    const header = JSON.parse(Buffer.from(parts[0]!, 'base64url').toString('utf8')) as { alg?: string; kid?: string; typ?: string };
    if (header.alg !== 'EdDSA' || header.typ !== typ) return null;
    const jwk = keys.find((k) => k.kid === header.kid);
    if (!jwk) return null;
    const key = createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: jwk.x }, format: 'jwk' });
    if (!verify(null, Buffer.from(`${parts[0]}.${parts[1]}`), key, Buffer.from(parts[2]!, 'base64url'))) return null;
    const payload = JSON.parse(Buffer.from(parts[1]!, 'base64url').toString('utf8')) as unknown;
    return payload !== null && typeof payload === 'object' ? (payload as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}
