import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { IdParams, NoContent } from '../../http/schemas.js';
import { RoleBodySchema, RoleSchema } from './roles.schemas.js';
import * as roles from './roles.service.js';

const tags = ['Roles'];

export const rolesRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/roles',
    { config: { permission: 'roles:read' }, schema: { tags, summary: 'List roles', response: { 200: Type.Array(RoleSchema) } } },
    async () => roles.listRoles(app.db),
  );

  app.post(
    '/roles',
    {
      config: { permission: 'roles:write' },
      schema: { tags, summary: 'Create a role', body: RoleBodySchema, response: { 201: RoleSchema } },
    },
    async (request, reply) => {
      const role = await app.transaction((trx) => roles.createRole(trx, request.actor.username, request.body));
      return reply.code(201).send(role);
    },
  );

  app.get(
    '/roles/:id',
    {
      config: { permission: 'roles:read' },
      schema: { tags, summary: 'Get a role', params: IdParams, response: { 200: RoleSchema } },
    },
    async (request) => roles.getRole(app.db, request.params.id),
  );

  app.put(
    '/roles/:id',
    {
      config: { permission: 'roles:write' },
      schema: {
        tags,
        summary: 'Replace a role (its permissions take effect on the next request of every holder)',
        params: IdParams,
        body: RoleBodySchema,
        response: { 200: RoleSchema },
      },
    },
    async (request) => app.transaction((trx) => roles.updateRole(trx, request.actor.username, request.params.id, request.body)),
  );

  app.delete(
    '/roles/:id',
    {
      config: { permission: 'roles:delete' },
      schema: { tags, summary: 'Delete a role and remove it from every account', params: IdParams, response: { 204: NoContent } },
    },
    async (request, reply) => {
      await app.transaction((trx) => roles.deleteRole(trx, request.actor.username, request.params.id));
      return reply.code(204).send(null);
    },
  );
};
