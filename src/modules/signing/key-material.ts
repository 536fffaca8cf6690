// Ed25519 key material: generation, PEM parsing, the public JWK and its RFC 7638 kid.
import { createHash, createPrivateKey, createPublicKey, generateKeyPairSync, type KeyObject } from 'node:crypto';

export interface PublicJwk {
  kty: 'OKP';
  crv: 'Ed25519';
  x: string;
  kid: string;
  alg: 'EdDSA';
  use: 'sig';
}

export interface SigningKey {
  kid: string;
  /** base64url public key */
  x: string;
  privateKey: KeyObject;
  /** base64url of the protected header per `typ`, computed once */
  headers: Record<JwsType, string>;
}

/** `validation-receipt+mt`: batch-signed receipts (the signature covers a Merkle root, batch-receipts.ts). */
/** `download`: the entry a stamped jar carries; `release-check`: a signed update check (releases). */
export type JwsType = 'validation-receipt' | 'license-file' | 'validation-receipt+mt' | 'download' | 'release-check';

/** RFC 7638 thumbprint of an Ed25519 public key: the required members in lexicographic order. */
export const thumbprint = (x: string): string =>
  createHash('sha256').update(JSON.stringify({ crv: 'Ed25519', kty: 'OKP', x })).digest('base64url');

export const publicJwk = (x: string): PublicJwk => ({ kty: 'OKP', crv: 'Ed25519', x, kid: thumbprint(x), alg: 'EdDSA', use: 'sig' });

const headerOf = (kid: string, typ: JwsType) => Buffer.from(JSON.stringify({ alg: 'EdDSA', kid, typ })).toString('base64url');

/** Parses a PKCS#8 PEM; throws when it is not an Ed25519 private key. */
export function signingKeyFromPem(pem: string): SigningKey {
  const privateKey = createPrivateKey({ key: pem, format: 'pem' });
  if (privateKey.asymmetricKeyType !== 'ed25519') throw new Error(`expected an Ed25519 key, got ${privateKey.asymmetricKeyType}`);
  const x = createPublicKey(privateKey).export({ format: 'jwk' }).x!;
  const kid = thumbprint(x);
  return {
    kid,
    x,
    privateKey,
    headers: {
      'validation-receipt': headerOf(kid, 'validation-receipt'),
      'license-file': headerOf(kid, 'license-file'),
      'validation-receipt+mt': headerOf(kid, 'validation-receipt+mt'),
      download: headerOf(kid, 'download'),
      'release-check': headerOf(kid, 'release-check'),
    },
  };
}

export function generateSigningKeyPem(): string {
  const { privateKey } = generateKeyPairSync('ed25519');
  return privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();
}
