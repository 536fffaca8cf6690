import type SqliteDatabase from 'better-sqlite3';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { clientIp } from '../../http/client-ip.js';
import { validationRateLimit } from '../../http/rate-limit.js';
import { ErrorSchema } from '../../http/schemas.js';
import { ValidateBodySchema, ValidateResultSchema } from './licenses.schemas.js';
import { createValidator } from './validation.service.js';

export interface ValidationRoutesOptions {
  /** The raw SQLite handle behind app.db (null on PostgreSQL): validation prepares its statements on it. */
  sqlite: SqliteDatabase.Database | null;
}

export const validationRoutes: FastifyPluginAsyncTypebox<ValidationRoutesOptions> = async (app, options) => {
  const validator = createValidator(app.db, app.dialect, options.sqlite, app.config.validationHistoryMax);
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
          'non-string fields are 400. Rate limit: 30 requests per 60 s per client IP (both 200s and 400s count). The client IP is the connection peer (X-Forwarded-For only behind TRUST_PROXY).',
        body: ValidateBodySchema,
        response: {
          200: ValidateResultSchema,
          429: { ...ErrorSchema, description: 'More than VALIDATION_RATE_LIMIT (default 30) requests in 60 s from this IP; see Retry-After' },
        },
      },
    },
    async (request) => {
      const { licenseId, productId, hwid } = request.body;
      return { valid: await validator.validate({ licenseId, productId, hwid, ip: clientIp(request) }) };
    },
  );
};
