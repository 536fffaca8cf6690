// POST /licenses/{id}/license-file: a signed file the client verifies offline.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { IdParams } from '../../http/schemas.js';
import { DEFAULT_VALID_FOR_DAYS, issueLicenseFile } from './license-file.service.js';
import { LicenseFileBodySchema, LicenseFileSchema } from './licenses.schemas.js';

export const licenseFileRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.post(
    '/licenses/:id/license-file',
    {
      config: { permission: 'licenses:write' },
      // The body is optional: no body means the default validity.
      preValidation: async (request) => {
        request.body ??= {};
      },
      schema: {
        tags: ['Licenses'],
        summary: 'Issue a signed license file for offline use',
        description:
          'A compact JWS (EdDSA, typ license-file) over {licenseId, productId, customerId, expiresAtEpochMillis, maxIps, ' +
          'maxHwids, usedIps, usedHwids, issuedAtEpochMillis, validUntilEpochMillis}, signed with the current key. Audited as licenses.issueFile.',
        params: IdParams,
        body: LicenseFileBodySchema,
        response: { 200: LicenseFileSchema },
      },
    },
    async (request) => {
      const key = await app.signingKeys.current();
      const days = request.body.validForDays ?? DEFAULT_VALID_FOR_DAYS;
      const file = await app.transaction((trx) => issueLicenseFile(trx, request.actor.username, request.params.id, days, key));
      app.signingKeys.signed(key);
      return file;
    },
  );
};
