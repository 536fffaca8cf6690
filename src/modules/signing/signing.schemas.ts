// Schemas of the signing-key endpoints and the public JWK Set.
import { Type, type Static } from '@sinclair/typebox';
import { NullableInteger } from '../../http/schemas.js';

export const SigningKeySchema = Type.Object({
  kid: Type.String({ description: 'Key id: the RFC 7638 thumbprint of the public key (base64url SHA-256)' }),
  createdAtEpochMillis: Type.Integer({ description: 'When the key was created (for a configured key: when this instance started)' }),
  retiredAtEpochMillis: NullableInteger({ description: 'When a rotation retired it; null while current' }),
  current: Type.Boolean({ description: 'Whether it signs receipts and license files now' }),
});
export type SigningKeyView = Static<typeof SigningKeySchema>;

export const KidParams = Type.Object({ kid: Type.String({ description: 'Key id (kid)' }) });

export const JwkSetSchema = Type.Object(
  {
    keys: Type.Array(
      Type.Object({
        kty: Type.Literal('OKP'),
        crv: Type.Literal('Ed25519'),
        x: Type.String({ description: 'Public key, base64url' }),
        kid: Type.String({ description: 'RFC 7638 thumbprint' }),
        alg: Type.Literal('EdDSA'),
        use: Type.Literal('sig'),
      }),
      { description: 'The key in use first, retired keys after it' },
    ),
  },
  { description: 'JWK Set (RFC 7517)' },
);
