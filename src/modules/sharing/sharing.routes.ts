import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ErrorAnswer, IdParams, NoContent } from '../../http/schemas.js';
import { LicenseSharingSchema } from './sharing.schemas.js';
import { clearSharing, licenseSharing } from './sharing.service.js';

const tags = ['Licenses'];

export const sharingRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/licenses/:id/sharing',
    {
      config: { permission: 'licenses:read' },
      schema: {
        tags,
        summary: 'Shared-key detection for a license: its alert, distinct values in the window, the values seen most',
        params: IdParams,
        response: { 200: LicenseSharingSchema, 404: ErrorAnswer('License not found') },
      },
    },
    async (request) => licenseSharing(app.db, request.params.id),
  );

  app.post(
    '/licenses/:id/sharing/clear',
    {
      config: { permission: 'licenses:write' },
      schema: {
        tags,
        summary: 'Clear the "suspected of sharing" mark (re-arms the alert)',
        description:
          'Audited as `licenses.sharing.clear`. A new window starts: the values seen before no longer count, so the alert fires ' +
          'again only if the license is presented from too many distinct values from now on. The license\'s version does not change.',
        params: IdParams,
        response: { 204: NoContent, 404: ErrorAnswer('License not found'), 409: ErrorAnswer('License is not suspected of sharing') },
      },
    },
    async (request, reply) => {
      await app.transaction((trx) => clearSharing(trx, request.actor.username, request.params.id));
      app.sharing.forgetLicense(request.params.id);
      return reply.code(204).send(null);
    },
  );
};
