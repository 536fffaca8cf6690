import { Type, type Static } from '@sinclair/typebox';
import { NullableInteger } from '../../http/schemas.js';

export const ApiTokenSchema = Type.Object({
  id: Type.String({ description: 'Token id (UUIDv7); not the secret' }),
  name: Type.String(),
  permissions: Type.Array(Type.String(), { description: 'Granted permissions; at each request only those the owner still holds apply' }),
  createdAtEpochMillis: Type.Integer(),
  expiresAtEpochMillis: Type.Union([Type.Integer(), Type.Null()], { description: 'null: never expires' }),
  lastUsedAtEpochMillis: Type.Union([Type.Integer(), Type.Null()], {
    description: 'Last use; written at most once a minute, so it may lag by up to a minute',
  }),
});
export type ApiTokenView = Static<typeof ApiTokenSchema>;

export const CreatedApiTokenSchema = Type.Composite([
  ApiTokenSchema,
  Type.Object({
    token: Type.String({ description: 'The secret (`lst_` + 43 characters): shown only in this answer. Send as `Authorization: Bearer <token>`.' }),
  }),
]);

export const CreateApiTokenBodySchema = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 100, examples: ['nightly export'] }),
  permissions: Type.Array(Type.String({ maxLength: 100 }), {
    minItems: 1,
    maxItems: 100,
    description: 'A subset of your own permissions ("*" only for the Master Admin)',
    examples: [['licenses:read']],
  }),
  expiresAtEpochMillis: NullableInteger({ description: 'Expiry (in the future), or null for none', examples: [null] }),
});
export type CreateApiTokenBody = Static<typeof CreateApiTokenBodySchema>;
