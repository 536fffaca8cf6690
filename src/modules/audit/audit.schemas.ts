import { Type, type Static } from '@sinclair/typebox';

export const AuditEntrySchema = Type.Object(
  {
    id: Type.String({ description: 'Entry id (UUIDv7)' }),
    name: Type.String({ description: 'Event name, e.g. customers.create', examples: ['customers.create'] }),
    performedBy: Type.String({ description: 'Username of the actor (`marketplace` for the webhook)' }),
    timestampEpochMillis: Type.Number({ description: 'When the action happened' }),
    data: Type.String({ description: 'JSON snapshot of the affected entity, as a string, showing no more than the caller may read directly' }),
  },
);

export const AuditQuerySchema = Type.Object({
  limit: Type.Optional(
    Type.Integer({ minimum: 1, default: 200, description: 'Entries to return (default 200; values above 1000 are clamped to 1000)' }),
  ),
  offset: Type.Optional(Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER, description: 'Skip this many entries first (default 0)', examples: [0] })),
  name: Type.Optional(
    Type.Array(Type.String({ minLength: 1, maxLength: 200 }), {
      maxItems: 100,
      description: 'Only entries with this event name; repeat the parameter for any of several (`?name=a&name=b`)',
      examples: [['licenses.create']],
    }),
  ),
  namePrefix: Type.Optional(
    Type.String({ minLength: 1, maxLength: 200, description: 'Only entries whose event name starts with this text', examples: ['licenses.'] }),
  ),
  actor: Type.Optional(
    Type.String({ minLength: 1, maxLength: 200, description: 'Only entries performed by this username (exact)', examples: ['admin'] }),
  ),
  // Bounded like `offset`: 2^63 and above would fail inside PostgreSQL's bigint (a 500).
  since: Type.Optional(
    Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER, description: 'Only entries at or after this time (epoch millis)', examples: [1764000000000] }),
  ),
  until: Type.Optional(
    Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER, description: 'Only entries before this time (epoch millis)', examples: [1764086400000] }),
  ),
});
export type AuditQuery = Static<typeof AuditQuerySchema>;
export type AuditEntry = Static<typeof AuditEntrySchema>;
