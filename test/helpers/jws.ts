// Verifies a compact JWS against a JWK Set the way a client would, for service tests.
import { createPublicKey, verify } from 'node:crypto';

export interface Jwk {
  kty: string;
  crv: string;
  x: string;
  kid: string;
}

export function verifyJws(jws: string, jwks: { keys: Jwk[] }): { header: Record<string, unknown>; payload: Record<string, unknown> } {
  const [h, p, s] = jws.split('.');
  if (!h || !p || !s) throw new Error('not a compact JWS');
  const header = JSON.parse(Buffer.from(h, 'base64url').toString()) as Record<string, unknown>;
  const jwk = jwks.keys.find((k) => k.kid === header.kid);
  if (!jwk) throw new Error(`unknown kid ${String(header.kid)}`);
  const key = createPublicKey({ key: { kty: jwk.kty, crv: jwk.crv, x: jwk.x }, format: 'jwk' });
  if (!verify(null, Buffer.from(`${h}.${p}`), key, Buffer.from(s, 'base64url'))) throw new Error('bad signature');
  return { header, payload: JSON.parse(Buffer.from(p, 'base64url').toString()) as Record<string, unknown> };
}

export const decodePayload = (jws: string) => JSON.parse(Buffer.from(jws.split('.')[1]!, 'base64url').toString()) as Record<string, unknown>;
