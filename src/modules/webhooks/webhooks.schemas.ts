import { Type, type Static } from '@sinclair/typebox';
import { NullableString } from '../../http/schemas.js';
import { ALL_EVENTS, EVENT_TYPES } from '../events/event-types.js';

const FormatSchema = Type.Unsafe<'standard' | 'discord'>({
  type: 'string',
  enum: ['standard', 'discord'],
  description: '`standard`: Standard Webhooks (signed JSON event); `discord`: a Discord webhook message (unsigned)',
});

const EventsSchema = Type.Array(Type.String({ minLength: 1, maxLength: 100 }), {
  minItems: 1,
  maxItems: 100,
  description: `Event types to receive, or \`["${ALL_EVENTS}"]\` for all. Known types: ${EVENT_TYPES.join(', ')}.`,
  examples: [['licenses.create', 'licenses.revoke', 'marketplace.license.create']],
});

export const WebhookEndpointBodySchema = Type.Object(
  {
    url: Type.String({ minLength: 1, maxLength: 2048, description: 'http(s) URL of a public host', examples: ['https://example.com/hooks/licensing'] }),
    events: EventsSchema,
    format: Type.Optional(FormatSchema),
    description: Type.Optional(NullableString({ maxLength: 500, description: 'What the endpoint is for' })),
    enabled: Type.Optional(Type.Boolean({ description: 'Default true. Enabling a disabled endpoint resumes its pending events.' })),
  },
);
export type WebhookEndpointBody = Static<typeof WebhookEndpointBodySchema>;

export const WebhookEndpointSchema = Type.Object(
  {
    id: Type.String({ description: 'Endpoint id (UUIDv7)' }),
    url: Type.String(),
    events: Type.Array(Type.String()),
    format: FormatSchema,
    description: NullableString(),
    enabled: Type.Boolean(),
    failingSinceEpochMillis: Type.Union([Type.Integer(), Type.Null()], {
      description: 'When the current run of failed attempts began; null when the last attempt succeeded',
    }),
    disabledReason: NullableString({ description: 'Why the service disabled it (5 days failing); null otherwise' }),
    createdAtEpochMillis: Type.Integer(),
    updatedAtEpochMillis: Type.Integer(),
  },
  { $id: 'WebhookEndpoint' },
);
export type WebhookEndpoint = Static<typeof WebhookEndpointSchema>;

export const WebhookEndpointWithSecretSchema = Type.Intersect(
  [WebhookEndpointSchema, Type.Object({ secret: Type.String({ description: '`whsec_` + base64 of 32 random bytes; shown only here' }) })],
  { $id: 'WebhookEndpointWithSecret' },
);
export type WebhookEndpointWithSecret = Static<typeof WebhookEndpointWithSecretSchema>;

export const DeliverySchema = Type.Object(
  {
    eventId: Type.String({ description: 'The `webhook-id` header: the same on every attempt' }),
    type: Type.String(),
    attempt: Type.Integer({ description: '1 for the first attempt (a redelivery starts again at 1)' }),
    status: Type.Unsafe<'pending' | 'delivered' | 'failed'>({
      type: 'string',
      enum: ['pending', 'delivered', 'failed'],
      description: 'The event after this attempt: delivered, pending (another attempt is scheduled) or failed (given up)',
    }),
    eventStatus: Type.Unsafe<'pending' | 'delivered' | 'failed'>({
      type: 'string',
      enum: ['pending', 'delivered', 'failed'],
      description:
        "The event's state now, after all its attempts (and any redelivery): an attempt that was `pending` (retry scheduled) " +
        'shows here whether the event was delivered later or given up',
    }),
    responseStatus: Type.Union([Type.Integer(), Type.Null()], { description: 'null: no HTTP answer (timeout, refused, connection failed)' }),
    responseBody: NullableString({ description: 'The first 2 KiB of the answer, or why there was none' }),
    durationMs: Type.Integer(),
    atEpochMillis: Type.Integer(),
  },
  { $id: 'WebhookDelivery' },
);
export type Delivery = Static<typeof DeliverySchema>;

export const DeliveriesQuerySchema = Type.Object({
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 500, description: 'Newest first; default 50, at most 500' })),
});

export const EventParams = Type.Object({ id: Type.String({ description: 'Endpoint id' }), eventId: Type.String({ description: 'Event id' }) });

export const QueuedEventSchema = Type.Object({
  eventId: Type.String(),
  status: Type.Literal('pending'),
});
