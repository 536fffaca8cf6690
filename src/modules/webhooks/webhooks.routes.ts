import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ErrorAnswer, IdParams, NoContent } from '../../http/schemas.js';
import { hasPermission, type PermissionHolder } from '../../http/permissions.js';
import { withoutDiscordTokens } from '../../lib/discord-webhook-url.js';
import * as endpoints from './endpoints.service.js';
import type { WebhookEndpoint } from './webhooks.schemas.js';
import { ALL_EVENTS, EVENT_TYPES } from '../events/event-types.js';
import {
  DeliveriesQuerySchema,
  DeliverySchema,
  EventParams,
  QueuedEventSchema,
  WebhookEndpointBodySchema,
  WebhookEndpointSchema,
  WebhookEndpointWithSecretSchema,
} from './webhooks.schemas.js';

const tags = ['Webhooks'];

/**
 * A Discord webhook URL's token is a credential: a caller who may only read endpoints sees
 * it cut (`…`); one who may change them (and so re-enter the URL) sees it whole.
 */
const shownTo = (actor: PermissionHolder) => (endpoint: WebhookEndpoint): WebhookEndpoint =>
  hasPermission(actor, 'webhooks:write') ? endpoint : { ...endpoint, url: withoutDiscordTokens(endpoint.url) };
const READ_NOTE = ' Without `webhooks:write`, the token of a Discord webhook URL is shown as `…`.';
const URL_RULE =
  'The URL must be http(s); a host that resolves to a loopback, private, link-local or unspecified address is refused (400 naming `url`) ' +
  'here and again at every delivery, unless WEBHOOK_ALLOW_PRIVATE_NETWORKS=true.';

export const webhooksRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const allowPrivate = app.config.webhookAllowPrivateNetworks;
  /** After a change: this instance's validations see it at once (others within a second). */
  const changed = () => app.webhookSubscriptions.reload();

  app.get(
    '/webhook-endpoints',
    {
      config: { permission: 'webhooks:read' },
      schema: { tags, summary: 'List webhook endpoints', description: READ_NOTE.trim(), response: { 200: Type.Array(WebhookEndpointSchema) } },
    },
    async (request) => (await endpoints.listEndpoints(app.db)).map(shownTo(request.actor)),
  );

  app.get(
    '/webhook-endpoints/event-types',
    {
      config: { permission: 'webhooks:read' },
      schema: {
        tags,
        summary: 'Event types an endpoint may subscribe to',
        description: `Every known type, in the order of the vocabulary (audit actions, validation facts, \`licenses.expiring\`). \`["${ALL_EVENTS}"]\` subscribes to all of them, later ones included.`,
        response: { 200: Type.Array(Type.String({ examples: ['licenses.create'] })) },
      },
    },
    async () => [...EVENT_TYPES],
  );

  app.post(
    '/webhook-endpoints',
    {
      config: { permission: 'webhooks:write' },
      schema: {
        tags,
        summary: 'Create a webhook endpoint (its secret is answered only here)',
        description: `Events are queued for it from the next change on. ${URL_RULE}`,
        body: WebhookEndpointBodySchema,
        response: { 201: WebhookEndpointWithSecretSchema },
      },
    },
    async (request, reply) => {
      const checked = await endpoints.checkBody(request.body, allowPrivate);
      const created = await app.transaction((trx) => endpoints.createEndpoint(trx, request.actor.username, request.body, checked));
      await changed();
      return reply.code(201).send(created);
    },
  );

  app.get(
    '/webhook-endpoints/:id',
    {
      config: { permission: 'webhooks:read' },
      schema: { tags, summary: 'Get a webhook endpoint', description: READ_NOTE.trim(), params: IdParams, response: { 200: WebhookEndpointSchema } },
    },
    async (request) => shownTo(request.actor)(await endpoints.getEndpoint(app.db, request.params.id)),
  );

  app.put(
    '/webhook-endpoints/:id',
    {
      config: { permission: 'webhooks:write' },
      schema: {
        tags,
        summary: 'Replace a webhook endpoint (not its secret)',
        description: `Omitted optional fields take their defaults. Enabling a disabled endpoint resumes its pending events. ${URL_RULE}`,
        params: IdParams,
        body: WebhookEndpointBodySchema,
        response: { 200: WebhookEndpointSchema },
      },
    },
    async (request) => {
      const checked = await endpoints.checkBody(request.body, allowPrivate);
      const updated = await app.transaction((trx) => endpoints.updateEndpoint(trx, request.actor.username, request.params.id, request.body, checked));
      await changed();
      return updated;
    },
  );

  app.delete(
    '/webhook-endpoints/:id',
    {
      config: { permission: 'webhooks:write' },
      schema: { tags, summary: 'Delete a webhook endpoint with its queued events and delivery log', params: IdParams, response: { 204: NoContent } },
    },
    async (request, reply) => {
      await app.transaction(async (trx) => {
        await app.storage.lock(trx, endpoints.endpointLockKey(request.params.id)); // not while a delivery is recorded
        await endpoints.deleteEndpoint(trx, request.actor.username, request.params.id);
      });
      await changed();
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/webhook-endpoints/:id/rotate-secret',
    {
      config: { permission: 'webhooks:write' },
      schema: {
        tags,
        summary: 'Replace the signing secret (the new one is answered only here)',
        description: 'Attempts from now on are signed with the new secret, retries of older events included.',
        params: IdParams,
        response: { 200: WebhookEndpointWithSecretSchema },
      },
    },
    async (request) => app.transaction((trx) => endpoints.rotateSecret(trx, request.actor.username, request.params.id)),
  );

  app.get(
    '/webhook-endpoints/:id/deliveries',
    {
      config: { permission: 'webhooks:read' },
      schema: {
        tags,
        summary: 'Delivery attempts, newest first',
        description: 'Kept 30 days.',
        params: IdParams,
        querystring: DeliveriesQuerySchema,
        response: { 200: Type.Array(DeliverySchema) },
      },
    },
    async (request) => endpoints.listDeliveries(app.db, request.params.id, request.query.limit ?? 50),
  );

  app.post(
    '/webhook-endpoints/:id/deliveries/:eventId/redeliver',
    {
      config: { permission: 'webhooks:write' },
      schema: {
        tags,
        summary: 'Send an event again',
        description: 'The event (kept 30 days) is due at once, with the same `webhook-id` and a fresh retry schedule, delivered or failed before.',
        params: EventParams,
        response: { 202: QueuedEventSchema, 404: ErrorAnswer('Endpoint or event not found') },
      },
    },
    async (request, reply) => {
      await app.transaction((trx) => endpoints.redeliver(trx, request.params.id, request.params.eventId));
      return reply.code(202).send({ eventId: request.params.eventId, status: 'pending' as const });
    },
  );

  app.post(
    '/webhook-endpoints/:id/test',
    {
      config: { permission: 'webhooks:write' },
      schema: {
        tags,
        summary: 'Send a `ping` event to this endpoint',
        description: 'Queued like any event: its attempts show in the delivery log.',
        params: IdParams,
        response: { 202: QueuedEventSchema, 409: ErrorAnswer('Endpoint is disabled') },
      },
    },
    async (request, reply) => {
      const eventId = await app.transaction((trx) => endpoints.sendTestPing(trx, request.params.id));
      return reply.code(202).send({ eventId, status: 'pending' as const });
    },
  );
};
