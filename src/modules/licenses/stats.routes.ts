import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { LicenseStatsQuerySchema, LicenseStatsSchema } from './stats.schemas.js';
import { getLicenseStats } from './stats.service.js';

// A static path: the router prefers it to /licenses/:id, so no license id can shadow it.
export const licenseStatsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/licenses/stats',
    {
      config: { permission: 'licenses:read' },
      schema: {
        tags: ['Licenses'],
        summary: 'Licenses by status and validation attempts per hour, for dashboards',
        description:
          'Counts active and expired licenses at the server time and the validation attempts still kept in the ' +
          "licenses' histories (VALIDATION_HISTORY_MAX each) since `since`, per UTC hour, so a client can group them " +
          'into its own local days (read from per-hour counters kept as attempts are written, so the cost does not grow with ' +
          'the history). A `since` more than 90 days back or in the future is 400.',
        querystring: LicenseStatsQuerySchema,
        response: { 200: LicenseStatsSchema },
      },
    },
    async (request) => getLicenseStats(app.db, request.query),
  );
};
