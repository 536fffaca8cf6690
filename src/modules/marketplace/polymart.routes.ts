// POST /integrations/polymart (webhook events) and /integrations/polymart/placeholder
// (the license-key placeholder): public, signed with X-Polymart-Signature over the raw
// body, JSON answers. Checks run in this order: rate limit (429), configured (503),
// signature (401), JSON and schema (400), then the service.
import { Type } from '@sinclair/typebox';
import type { FastifyInstance, FastifyPluginAsync, FastifyRequest, onRequestHookHandler } from 'fastify';
import { badRequest, HttpError } from '../../http/errors.js';
import { rateLimitHook, WEBHOOK_LIMITED } from '../../http/rate-limit.js';
import { ErrorAnswer } from '../../http/schemas.js';
import {
  PolymartIgnoredAnswerSchema, PolymartPingAnswerSchema, PolymartPlaceholderAnswerSchema, PolymartPlaceholderBodySchema, PolymartPurchaseAnswerSchema,
  PolymartRefundAnswerSchema, PolymartWebhookBodySchema, PolymartWebhookEventSchema,
} from './polymart.schemas.js';
import { handleDelivery, handlePlaceholder, type PlaceholderRequest, type WebhookDelivery } from './polymart.service.js';
import { isPolymartSignature, SIGNATURE_HEADER } from './polymart.signature.js';
import { MINUTE_MS } from '../../lib/time.js';

export const POLYMART_PATHS = { webhook: '/integrations/polymart', placeholder: '/integrations/polymart/placeholder' };
const BODY_LIMIT = 64 * 1024;
const NOT_CONFIGURED = 'Polymart integration is not configured';
const tags = ['Marketplace'];

const unauthorized = ErrorAnswer(
  '`X-Polymart-Signature header is required` or `Invalid X-Polymart-Signature`: the header is not the hex HMAC-SHA256 of the raw body',
);
const unavailable = ErrorAnswer(
  '`Polymart integration is not configured` (POLYMART_WEBHOOK_SECRET is unset), or the database is unavailable (with `Retry-After`)',
);

/** The Polymart routes share one counter per client IP, apart from the BuiltByBit-style webhook's. */
const polymartRateLimit = (app: FastifyInstance) =>
  rateLimitHook(app, {
    name: 'polymart',
    max: app.config.webhookRateLimit,
    windowMs: MINUTE_MS,
    reject: (reply) => reply.code(429).send({ error: WEBHOOK_LIMITED }),
  });

/** Checks the signature on the raw bytes, then parses them: an unsigned body is a 401 whatever it holds. */
const signedJson = (secret: () => string) => async (request: FastifyRequest) => {
  const raw = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
  const signature = request.headers[SIGNATURE_HEADER];
  if (signature === undefined) throw new HttpError(401, 'X-Polymart-Signature header is required');
  if (!isPolymartSignature(raw, signature, secret())) throw new HttpError(401, 'Invalid X-Polymart-Signature');
  try {
    request.body = JSON.parse(raw.toString('utf8'));
  } catch {
    throw badRequest('Request body is not valid JSON');
  }
};

export const polymartRoutes: FastifyPluginAsync = async (app) => {
  // The signature covers the bytes as sent, so this plugin reads every body raw, whatever
  // its Content-Type, and parses the JSON itself once it is signed. The parsers of the
  // rest of the API are untouched (content-type parsers are scoped to their plugin).
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: BODY_LIMIT }, (_request, body, done) => done(null, body));

  const config = app.config;
  const configured: onRequestHookHandler = (_request, _reply, done) =>
    done(config.polymartWebhookSecret === null ? new HttpError(503, NOT_CONFIGURED) : undefined);
  const onRequest = [polymartRateLimit(app), configured];
  const webhookSecret = () => config.polymartWebhookSecret!;
  const placeholderSecret = () => config.polymartPlaceholderSecret ?? config.polymartWebhookSecret!;

  app.post(
    POLYMART_PATHS.webhook,
    {
      onRequest,
      preValidation: signedJson(webhookSecret),
      config: { openapi: { documentedBody: PolymartWebhookEventSchema } },
      schema: {
        tags,
        summary: 'Polymart webhook: purchases and refunds',
        description:
          'Polymart sends its product webhooks here, signed with `X-Polymart-Signature` (hex HMAC-SHA256 of the raw ' +
          'body keyed with POLYMART_WEBHOOK_SECRET). `product.user.purchase` issues (or re-issues) the buyer\'s license ' +
          'like the marketplace webhook, the product found by `polymartProductId` and the buyer by `socials.PolymartID`; ' +
          '`product.user.purchaseRemoved` (refund or chargeback) revokes the buyer\'s active licenses for that product; ' +
          '`ping` and unknown events are acknowledged. Every outcome is 200 (any other status makes Polymart retry). ' +
          'A nonce already processed is answered as the first time and does nothing. Audit entries carry ' +
          '`"marketplace": "polymart"`.',
        headers: Type.Object({ [SIGNATURE_HEADER]: Type.Optional(Type.String({ description: 'Hex HMAC-SHA256 of the raw body' })) }),
        body: PolymartWebhookBodySchema,
        response: {
          200: Type.Union([PolymartPurchaseAnswerSchema, PolymartRefundAnswerSchema, PolymartPingAnswerSchema, PolymartIgnoredAnswerSchema], {
            description: 'Handled (or acknowledged and ignored): the answer depends on the event',
          }),
          401: unauthorized,
          503: unavailable,
        },
      },
    },
    async (request, reply) => {
      const answer = await handleDelivery(app.storage, request.body as WebhookDelivery);
      return reply.code(answer.status as 200).send(answer.body); // 200 for every event today
    },
  );

  app.post(
    POLYMART_PATHS.placeholder,
    {
      onRequest,
      preValidation: signedJson(placeholderSecret),
      schema: {
        tags,
        summary: 'Polymart license-key placeholder: the buyer\'s key',
        description:
          'Polymart\'s external license-key placeholder calls this when a buyer downloads the product, signed with ' +
          '`X-Polymart-Signature` (hex HMAC-SHA256 of the raw body keyed with POLYMART_PLACEHOLDER_SECRET, or ' +
          'POLYMART_WEBHOOK_SECRET when unset). The key is created or reused exactly as for a purchase. `time` must be ' +
          'within 300 s of the server\'s clock (401 otherwise).',
        headers: Type.Object({ [SIGNATURE_HEADER]: Type.Optional(Type.String({ description: 'Hex HMAC-SHA256 of the raw body' })) }),
        body: PolymartPlaceholderBodySchema,
        response: {
          200: PolymartPlaceholderAnswerSchema,
          401: ErrorAnswer('Missing or invalid `X-Polymart-Signature`, or `time` more than 300 s from the server\'s clock'),
          404: ErrorAnswer('`No product has polymartProductId …` (audited `marketplace.license.reject`)'),
          503: unavailable,
        },
      },
    },
    async (request) => ({ value: await handlePlaceholder(app.storage, request.body as PlaceholderRequest) }),
  );
};
