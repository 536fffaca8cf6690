import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ListResponse, sendList } from '../../http/list-response.js';
import { AuditEntrySchema, AuditQuerySchema } from './audit.schemas.js';
import { auditEventNames, listAudit } from './audit.service.js';

const MAX_LIMIT = 1000;
const tags = ['Audit log'];

export const auditRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/actions',
    {
      config: { permission: 'actions:read' },
      schema: {
        tags,
        summary: 'List audit entries, newest first',
        description:
          '`limit`/`offset` page the log; `name` (repeatable), `namePrefix`, `actor`, `since` and `until` filter it, ' +
          'all combined. `X-Total-Count` says how many entries match the filters in all.',
        querystring: AuditQuerySchema,
        response: { 200: ListResponse(AuditEntrySchema, 'The entries, with their total in X-Total-Count') },
      },
    },
    async (request, reply) => {
      const { limit = 200, offset, name, namePrefix, actor, since, until } = request.query;
      const list = await listAudit(app.db, { limit: Math.min(limit, MAX_LIMIT), offset, names: name, namePrefix, actor, since, until });
      return sendList(reply, list);
    },
  );

  app.get(
    '/actions/names',
    {
      config: { permission: 'actions:read' },
      schema: {
        tags,
        summary: 'Event names in the audit log',
        description: 'Every event name recorded so far, sorted: the choices of the `name` filter.',
        response: { 200: Type.Array(Type.String({ examples: ['customers.create'] })) },
      },
    },
    async () => auditEventNames(app.db),
  );
};
