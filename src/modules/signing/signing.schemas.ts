// Schemas of the signing-key endpoints and the public JWK Set.
import { Type, type Static } from '@sinclair/typebox';
import { NullableInteger } from '../../http/schemas.js';

export const SigningKeySchema = Type.Object({
  kid: Type.String({ description: 'Key id: the RFC 7638 thumbprint of the public key (base64url SHA-256)' }),
  createdAtEpochMillis: Type.Integer({ description: 'When the key was created (for a configured key: when this instance started)' }),
  retiredAtEpochMillis: NullableInteger({ description: 'When an activation retired it; null while next or current' }),
  lastSignedAtEpochMillis: NullableInteger({
    description:
      'When the key last signed a validation receipt or license file; null if never (since this field exists). ' +
      'Stored at most once a minute per instance, so another instance\'s signing shows up to a minute late. A retired ' +
      'key signs only for installed copies that pin it and not the current key: once it has not signed for longer than ' +
      'those copies go between validations, no installed copy that still validates needs it.',
  }),
  current: Type.Boolean({ description: 'Whether it signs receipts and license files now (state is current)' }),
  state: Type.Unsafe<'next' | 'current' | 'retired'>({
    type: 'string',
    enum: ['next', 'current', 'retired'],
    description:
      'next: published in the JWK Set, never signs (ship it in a client release before activating it); ' +
      'current: signs; retired: published, signs only for clients that pin it and not the current key (Receipt-Key-Ids)',
  }),
});
export type SigningKeyView = Static<typeof SigningKeySchema>;

export const CreateSigningKeyBodySchema = Type.Object(
  {
    activateNow: Type.Optional(
      Type.Boolean({
        description:
          'true: the new key becomes current at once and the current one is retired (a leaked key). ' +
          'Clients that pin only the old set keep verifying with the retired key until you delete it.',
      }),
    ),
  },
  { description: 'Optional; without it the key is created as next' },
);

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
      { description: 'The current key first, then the next key, then retired keys (newest first)' },
    ),
  },
  { description: 'JWK Set (RFC 7517)' },
);
