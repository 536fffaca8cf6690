// POST /marketplace, /marketplace/license and /integrations/marketplace: public, form,
// multipart or JSON bodies, plain-text answers (the key itself on success).
import type { FastifyError, FastifyPluginAsync } from 'fastify';
import formbody from '@fastify/formbody';
import multipart from '@fastify/multipart';
import { HttpError, SERVICE_UNAVAILABLE, UNAVAILABLE_HEADERS, unsupportedBody } from '../../http/errors.js';
import { webhookRateLimit } from '../../http/rate-limit.js';
import { formatValidationError } from '../../http/validation.js';
import { WebhookBodySchema, WebhookFormSchema } from './marketplace.schemas.js';
import { handleWebhook } from './marketplace.service.js';
import { MULTIPART_LIMITS, readMultipartFields } from './multipart-body.js';

export const WEBHOOK_PATHS = ['/marketplace', '/marketplace/license', '/integrations/marketplace'];
const TEXT = 'text/plain; charset=UTF-8';

export const marketplaceRoutes: FastifyPluginAsync = async (app) => {
  // Form parsers only in this plugin: the rest of the API stays JSON-only.
  await app.register(formbody, { bodyLimit: 64 * 1024 });
  await app.register(multipart, { limits: MULTIPART_LIMITS });
  app.addHook('preValidation', readMultipartFields);

  app.setErrorHandler((error: FastifyError | HttpError, request, reply) => {
    if ((error as FastifyError).code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') {
      return reply.code(400).type(TEXT).send(unsupportedBody(request, 'form-encoded, multipart/form-data or JSON').message);
    }
    const status = error.statusCode ?? 500;
    if (app.storage.isUnavailable(error)) {
      request.log.warn({ error: error.message }, 'marketplace webhook: database unavailable');
      return reply.code(503).headers(UNAVAILABLE_HEADERS).type(TEXT).send(SERVICE_UNAVAILABLE);
    }
    if (status >= 500 && !(error instanceof HttpError)) {
      request.log.error({ err: error }, 'marketplace webhook failed');
      return reply.code(500).type(TEXT).send('Internal server error');
    }
    if (error instanceof HttpError) reply.headers(error.headers);
    const message =
      error instanceof HttpError ? error.message : error.validation ? formatValidationError(error) : 'Malformed request body';
    return reply.code(status).type(TEXT).send(message);
  });

  // One counter per client IP across the three paths, counted before the body is read.
  const rateLimit = webhookRateLimit(app);
  for (const url of WEBHOOK_PATHS) {
    app.post(
      url,
      {
        onRequest: rateLimit,
        config: { openapi: { documentedBody: WebhookFormSchema } },
        schema: {
          tags: ['Marketplace'],
          summary: 'Issue (or re-issue) the license key of a marketplace buyer',
          description:
            'Accepts application/x-www-form-urlencoded, multipart/form-data or JSON. Success: 200 text/plain, the ' +
            'license key. Errors are plain text: 400 missing fields, 401 `Invalid secret`, 404 unknown resource, ' +
            '429 rate limited, 503 no secret configured. The three paths are equivalent.',
          consumes: ['application/x-www-form-urlencoded', 'multipart/form-data', 'application/json'],
          body: WebhookBodySchema,
          response: {
            200: { description: 'The license key', content: { 'text/plain': { schema: { type: 'string', examples: ['XXXX-XXXX-XXXX-XXXX'] } } } },
            401: { description: '`Invalid secret`', content: { 'text/plain': { schema: { type: 'string' } } } },
            404: { description: 'No product has this `resource_id` as its marketplaceResourceId', content: { 'text/plain': { schema: { type: 'string' } } } },
          },
        },
      },
      async (request, reply) => {
        const body = request.body !== null && typeof request.body === 'object' ? (request.body as Record<string, unknown>) : {};
        const key = await handleWebhook({ storage: app.storage, secret: app.config.marketplaceSecret }, body);
        return reply.type(TEXT).send(key);
      },
    );
  }
};
