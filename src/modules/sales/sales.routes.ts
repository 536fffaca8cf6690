// POST /licenses/{id}/renew: staff renew a license by hand (the purchase rule's step 2).
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ErrorAnswer, IdParams } from '../../http/schemas.js';
import { LicenseSchema } from '../licenses/licenses.schemas.js';
import { RenewBodySchema } from './renewal.schemas.js';
import { renewByStaff } from './renewal.service.js';

export const salesRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.post(
    '/licenses/:id/renew',
    {
      config: { permission: 'licenses:write' },
      schema: {
        tags: ['Licenses'],
        summary: 'Renew a license by one period (or `days`), as a subscription purchase would',
        description:
          'The expiry moves by `days` (default the product\'s recurringPeriodDays), counted from the current expiry while it ' +
          'is ahead or in grace, from now after grace; a firstValidation clock not started grows by it instead. With ' +
          '`amount` an order of kind `renewal` is recorded. Audited and sent as `licenses.renewed` `{licenseId, ' +
          'previousExpiresAtEpochMillis, expiresAtEpochMillis, orderId}`; version + 1. Concurrent renewals each add a period.',
        params: IdParams,
        body: RenewBodySchema,
        response: {
          200: LicenseSchema,
          409: ErrorAnswer('`License is revoked`, or `License does not expire`'),
        },
      },
    },
    async (request) =>
      app.transaction((trx) => renewByStaff(trx, request.actor.username, request.params.id, request.body ?? {}, app.config.validationHistoryMax)),
  );
};
