import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ErrorAnswer, IdParams, NoContent } from '../../http/schemas.js';
import { assertMayGrant, assertNotOwnRole } from './grant-rules.js';
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
      schema: {
        tags,
        summary: 'Create a role',
        description:
          'With `ROLE_GRANTS=subset`, a caller other than the Master Admin may give the role only permissions it holds: ' +
          '403 `Cannot grant permissions you do not hold: <list>` otherwise.',
        body: RoleBodySchema,
        response: { 201: RoleSchema, 403: ErrorAnswer('Lacks `roles:write`, or (subset mode) grants a permission the caller does not hold') },
      },
    },
    async (request, reply) => {
      assertMayGrant(request.actor, app.config.roleGrants, request.body.permissions);
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
      // Before the body is read: changing a role one holds is refused whatever the body says.
      preValidation: async (request) => assertNotOwnRole(app.db, request.actor, (request.params as { id: string }).id),
      schema: {
        tags,
        summary: 'Replace a role (its permissions take effect on the next request of every holder)',
        description:
          'Nobody but the Master Admin changes a role they hold: 403 `You cannot change your own privileges`. ' +
          'With `ROLE_GRANTS=subset`, the new permissions must all be held by the caller: 403 ' +
          '`Cannot grant permissions you do not hold: <list>` otherwise.',
        params: IdParams,
        body: RoleBodySchema,
        response: {
          200: RoleSchema,
          403: ErrorAnswer('Lacks `roles:write`, holds this role itself, or (subset mode) grants a permission it does not hold'),
        },
      },
    },
    async (request) => {
      assertMayGrant(request.actor, app.config.roleGrants, request.body.permissions);
      return app.transaction((trx) => roles.updateRole(trx, request.actor.username, request.params.id, request.body));
    },
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
