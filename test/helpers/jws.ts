// Verifies a compact JWS against a JWK Set the way a client would, for service tests.
import { createHash, createPublicKey, verify } from 'node:crypto';

export interface Jwk {
  kty: string;
  crv: string;
  x: string;
  kid: string;
}

export function verifyJws(jws: string, jwks: { keys: Jwk[] }): { header: Record<string, unknown>; payload: Record<string, unknown> } {
  const [h, p, s] = jws.split('.');
  if (!h || !p || !s) throw new Error('not a compact JWS');
  return { header: verifiedHeader(h, p, s, jwks), payload: JSON.parse(Buffer.from(p, 'base64url').toString()) as Record<string, unknown> };
}

/** The protected header when `s` is a signature over `h.p` by the key it names. */
function verifiedHeader(h: string, p: string, s: string, jwks: { keys: Jwk[] }): Record<string, unknown> {
  const header = JSON.parse(Buffer.from(h, 'base64url').toString()) as Record<string, unknown>;
  const jwk = jwks.keys.find((k) => k.kid === header.kid);
  if (!jwk) throw new Error(`unknown kid ${String(header.kid)}`);
  const key = createPublicKey({ key: { kty: jwk.kty, crv: jwk.crv, x: jwk.x }, format: 'jwk' });
  if (!verify(null, Buffer.from(`${h}.${p}`), key, Buffer.from(s, 'base64url'))) throw new Error('bad signature');
  return header;
}

export const decodePayload = (jws: string) => JSON.parse(Buffer.from(jws.split('.')[1]!, 'base64url').toString()) as Record<string, unknown>;

/**
 * Verifies a batch-signed receipt (`hdr..sig~claims~idx~path`) the way a client would,
 * written apart from the service's own tree code: throws unless it is genuine.
 */
export function verifyBatchReceipt(receipt: string, jwks: { keys: Jwk[] }) {
  const [jws, claims, idxText, pathText, ...rest] = receipt.split('~');
  if (!jws || !claims || !idxText || !pathText || rest.length > 0) throw new Error('not a batch receipt');
  const [h, empty, s, ...more] = jws.split('.');
  if (!h || empty !== '' || !s || more.length > 0) throw new Error('not a detached JWS');
  if (!/^(0|[1-9]\d*)$/.test(idxText) || Number(idxText) > 1023) throw new Error('bad idx');
  const path = Buffer.from(pathText, 'base64url');
  if (path.length !== 320) throw new Error('bad path length');
  const sha = (...parts: Buffer[]) => createHash('sha256').update(Buffer.concat(parts)).digest();
  let hash = sha(Buffer.from([0]), Buffer.from(claims, 'ascii'));
  const idx = Number(idxText);
  for (let level = 0; level < 10; level += 1) {
    const sibling = path.subarray(level * 32, level * 32 + 32);
    hash = (idx >> level) & 1 ? sha(Buffer.from([1]), sibling, hash) : sha(Buffer.from([1]), hash, sibling);
  }
  const header = verifiedHeader(h, hash.toString('base64url'), s, jwks);
  if (header.alg !== 'EdDSA' || header.typ !== 'validation-receipt+mt') throw new Error('not a batch receipt header');
  const payload = JSON.parse(Buffer.from(claims, 'base64url').toString()) as Record<string, unknown>;
  return { header, payload, idx, root: hash.toString('base64url'), signature: s };
}
