import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { clientIp } from '../../http/client-ip.js';
import { validationRateLimit } from '../../http/rate-limit.js';
import { ErrorSchema } from '../../http/schemas.js';
import { ValidateBodySchema, ValidateResultSchema } from './licenses.schemas.js';
import { createValidator } from './validation.service.js';
import type { ValidationRequest } from './validation.types.js';
import { signCompact } from '../signing/jws.js';

const RECEIPT_HEADER = 'Validation-Receipt';

export const validationRoutes: FastifyPluginAsyncTypebox = async (app) => {
  // The engine for this database (src/db/storage/ hands SQLite's raw handle to it).
  const validator = createValidator(app.storage, app.config.validationHistoryMax);
  app.addHook('onClose', () => validator.close());

  app.post(
    '/licenses/validate',
    {
      // Counts every request, before its body is read: malformed ones count too.
      onRequest: validationRateLimit(app),
      // Every attempt is in the license's history; a log line per call would only be noise.
      logLevel: 'warn',
      schema: {
        tags: ['Licenses'],
        summary: 'Validate a license (public)',
        description:
          'Checks in order: product match, expiry (at or past is expired), IP slot, HWID slot; the first failure ' +
          'answers `{"valid": false}`. A new IP or HWID is bound only when every check passes. Every attempt is ' +
          'recorded with its reason; an unknown license is `{"valid": false}` and records nothing. Missing or ' +
          'non-string fields are 400. With a `nonce`, the answer carries a `Validation-Receipt` header: a compact JWS ' +
          '(EdDSA, typ validation-receipt) over {licenseId, productId, hwid, nonce, ip, valid, timestampEpochMillis}, ' +
          'verifiable with GET /.well-known/jwks.json. Rate limit: 30 requests per 60 s per client IP (both 200s and 400s count). The client IP is the connection peer (X-Forwarded-For only behind TRUST_PROXY).',
        body: ValidateBodySchema,
        response: {
          200: {
            ...ValidateResultSchema,
            description: 'The decision; with a nonce, also the signed receipt header',
            headers: { 'Validation-Receipt': Type.String({ description: 'Compact JWS; present iff the request had a nonce' }) },
          },
          429: { ...ErrorSchema, description: 'More than VALIDATION_RATE_LIMIT (default 30) requests in 60 s from this IP; see Retry-After' },
        },
      },
    },
    async (request, reply) => {
      const { licenseId, productId, hwid, nonce } = request.body;
      const ip = clientIp(request);
      const decision: ValidationRequest = { licenseId, productId, hwid, ip };
      const valid = await validator.validate(decision);
      if (nonce !== undefined) {
        const timestampEpochMillis = decision.decidedAtEpochMillis ?? Date.now(); // the time the recorded attempt carries
        const payload = { licenseId, productId, hwid, nonce, ip, valid, timestampEpochMillis };
        reply.header(RECEIPT_HEADER, signCompact(await app.signingKeys.current(), 'validation-receipt', payload));
      }
      return { valid };
    },
  );
};
