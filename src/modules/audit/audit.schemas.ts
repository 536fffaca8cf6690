import { Type } from '@sinclair/typebox';

export const AuditEntrySchema = Type.Object(
  {
    id: Type.String({ description: 'Entry id (UUIDv7)' }),
    name: Type.String({ description: 'Event name, e.g. customers.create', examples: ['customers.create'] }),
    performedBy: Type.String({ description: 'Username of the actor (`marketplace` for the webhook)' }),
    timestampEpochMillis: Type.Number({ description: 'When the action happened' }),
    data: Type.String({ description: 'JSON snapshot of the affected entity, as a string' }),
  },
);

export const AuditQuerySchema = Type.Object({
  limit: Type.Optional(
    Type.Integer({ minimum: 1, default: 200, description: 'Entries to return (default 200; values above 1000 are clamped to 1000)' }),
  ),
  name: Type.Optional(Type.String({ minLength: 1, description: 'Only entries with this event name' })),
});
