import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ListResponse, sendList } from '../../http/list-response.js';
import { AuditEntrySchema, AuditQuerySchema } from './audit.schemas.js';
import { hasPermission, type PermissionHolder } from '../../http/permissions.js';
import { auditEventNames, listAudit } from './audit.service.js';
import type { AuditReader } from './audit.redaction.js';

const MAX_LIMIT = 1000;
const tags = ['Audit log'];

/** What the caller may read directly decides what it sees of each entry's data. */
const readerOf = (actor: PermissionHolder): AuditReader => ({
  licenses: hasPermission(actor, 'licenses:read'),
  customers: hasPermission(actor, 'customers:read'),
});

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
          'all combined. `X-Total-Count` says how many entries match the filters in all. `data` shows no more than the caller ' +
          'may read directly: without `licenses:read` license keys are cut to their first 5 characters (`ABCDE…`), without ' +
          '`customers:read` a customer record is reduced to its id and a buyer\'s marketplace user id is left out; the token ' +
          'of a Discord webhook URL is shown to no one.',
        querystring: AuditQuerySchema,
        response: { 200: ListResponse(AuditEntrySchema, 'The entries, with their total in X-Total-Count') },
      },
    },
    async (request, reply) => {
      const { limit = 200, offset, name, namePrefix, actor, since, until } = request.query;
      const filter = { limit: Math.min(limit, MAX_LIMIT), offset, names: name, namePrefix, actor, since, until };
      const list = await listAudit(app.db, filter, readerOf(request.actor));
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
