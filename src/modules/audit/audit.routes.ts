import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { AuditEntrySchema, AuditQuerySchema } from './audit.schemas.js';
import { listAudit } from './audit.service.js';

const MAX_LIMIT = 1000;

export const auditRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/actions',
    {
      config: { permission: 'actions:read' },
      schema: {
        tags: ['Audit log'],
        summary: 'List audit entries, newest first',
        querystring: AuditQuerySchema,
        response: { 200: Type.Array(AuditEntrySchema) },
      },
    },
    async (request) => {
      const { limit = 200, name } = request.query;
      return listAudit(app.db, { limit: Math.min(limit, MAX_LIMIT), name });
    },
  );
};
