import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { SIGNED_IN } from '../../http/authenticate.js';
import { IdParams, NoContent } from '../../http/schemas.js';
import { ApiTokenSchema, CreateApiTokenBodySchema, CreatedApiTokenSchema } from './api-tokens.schemas.js';
import * as tokens from './api-tokens.service.js';

const tags = ['API tokens'];

export const apiTokensRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.post(
    '/api-tokens',
    {
      config: { permission: SIGNED_IN },
      schema: {
        tags,
        summary: 'Create an API token for scripts (the secret is shown only in this answer)',
        description:
          'Permissions must be a subset of your own (400 otherwise). At each request the token may do what it was ' +
          "granted AND its owner still may: a role change narrows it at once; an inactive or deleted owner's tokens stop " +
          'working. Audited as `apiToken.create` (without the secret).',
        body: CreateApiTokenBodySchema,
        response: { 201: CreatedApiTokenSchema },
      },
    },
    async (request, reply) => reply.code(201).send(await tokens.createApiToken(app.db, request.actor, request.body)),
  );

  app.get(
    '/api-tokens',
    {
      config: { permission: SIGNED_IN },
      schema: { tags, summary: 'List your API tokens (never their secrets)', response: { 200: Type.Array(ApiTokenSchema) } },
    },
    async (request) => tokens.listApiTokens(app.db, request.actor),
  );

  app.delete(
    '/api-tokens/:id',
    {
      config: { permission: SIGNED_IN },
      schema: {
        tags,
        summary: 'Revoke one of your API tokens (effective on every instance at its next request)',
        description: 'Audited as `apiToken.revoke`. Another account\'s token or an unknown id: 404.',
        params: IdParams,
        response: { 204: NoContent },
      },
    },
    async (request, reply) => {
      await tokens.revokeApiToken(app.db, request.actor, request.params.id);
      return reply.code(204).send(null);
    },
  );
};
