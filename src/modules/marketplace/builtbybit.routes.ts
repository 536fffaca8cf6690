// POST /integrations/builtbybit/purchase: BuiltByBit's purchase webhook ("Custom" template,
// JSON). Public; the secret is in the body, as the template carries it. JSON answers.
import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { rateLimitHook, WEBHOOK_LIMITED } from '../../http/rate-limit.js';
import { ErrorAnswer } from '../../http/schemas.js';
import { MINUTE_MS } from '../../lib/time.js';
import { BuiltByBitIgnoredAnswerSchema, BuiltByBitPurchaseAnswerSchema, BuiltByBitPurchaseBodySchema } from './builtbybit.schemas.js';
import { handleBuiltByBitPurchase } from './builtbybit.service.js';

export const BUILTBYBIT_PURCHASE_PATH = '/integrations/builtbybit/purchase';

export const builtByBitRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const onRequest = rateLimitHook(app, {
    name: 'builtbybit',
    max: app.config.webhookRateLimit,
    windowMs: MINUTE_MS,
    reject: (reply) => reply.code(429).send({ error: WEBHOOK_LIMITED }),
  });
  app.post(
    BUILTBYBIT_PURCHASE_PATH,
    {
      onRequest,
      bodyLimit: 64 * 1024,
      schema: {
        tags: ['Marketplace'],
        summary: 'BuiltByBit purchase webhook: convert, renew, reuse or issue the buyer\'s license',
        description:
          'BuiltByBit calls this on each purchase with the "Custom" JSON template of docs/selling.md. The purchase rule ' +
          'applies: a held trial converts, a subscription renews (same key), a license not past grace is reused, else a new ' +
          'one is issued; a resource (or addon) id that names a tier moves the license to it. Each purchase records an ' +
          'order. The same purchase (resource, addon, user, purchase_date) delivered again is answered as the first time ' +
          'and does nothing. An unknown resource is 200 `{"ignored": "unknown resource"}` (audited), so BuiltByBit does not retry.',
        body: BuiltByBitPurchaseBodySchema,
        response: {
          200: Type.Union([BuiltByBitPurchaseAnswerSchema, BuiltByBitIgnoredAnswerSchema], { description: 'Handled, or acknowledged and ignored' }),
          401: ErrorAnswer('`Invalid secret` (audited `marketplace.license.reject`)'),
          503: ErrorAnswer('`Marketplace webhook is not configured` (MARKETPLACE_SECRET is unset), or the database is unavailable'),
        },
      },
    },
    async (request) => handleBuiltByBitPurchase(app.storage, app.config.marketplaceSecret, request.body),
  );
};
