import { Type, type Static } from '@sinclair/typebox';

const Nullable = <T extends ReturnType<typeof Type.String>>(schema: T) => Type.Union([schema, Type.Null()]);

export const RegistrationKeySchema = Type.Object({
  id: Type.String({ description: 'Record id (UUIDv7)' }),
  key: Type.Optional(Type.String({ description: 'The single-use key; returned only by the create call' })),
  note: Nullable(Type.String()),
  createdAtEpochMillis: Type.Number(),
  createdBy: Type.String({ description: 'Username of the Master Admin who generated it' }),
  usedAtEpochMillis: Type.Union([Type.Number(), Type.Null()]),
  usedBy: Nullable(Type.String({ description: 'Username of the account registered with it' })),
  roleIds: Type.Optional(
    Type.Array(Type.String(), {
      description: 'The roles a registration with this key may take (a subset of them); absent: any role, as SPEC.md says',
    }),
  ),
});
export type RegistrationKeyView = Static<typeof RegistrationKeySchema>;

export const CreateKeyBodySchema = Type.Object({
  note: Type.Optional(Type.String({ maxLength: 500, description: 'What the key is for', examples: ['for Jane (support)'] })),
  roleIds: Type.Optional(
    Type.Array(Type.String(), {
      maxItems: 100,
      description:
        'The roles this key grants: a registration with it may ask only for these (403 otherwise). Omitted: any role.',
      examples: [[]],
    }),
  ),
});
export type CreateKeyBody = Static<typeof CreateKeyBodySchema>;
