import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { MASTER_ADMIN } from '../../http/authenticate.js';
import { ErrorAnswer, IdParams, NoContent } from '../../http/schemas.js';
import { CreateKeyBodySchema, RegistrationKeySchema } from './registration-keys.schemas.js';
import * as keys from './registration-keys.service.js';

const tags = ['Registration keys'];
const config = { permission: MASTER_ADMIN };

export const registrationKeysRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.post(
    '/admin/registration-keys',
    {
      config: { ...config, openapi: { optionalBody: true } },
      // The body is optional: no body means no note.
      preValidation: async (request) => {
        request.body ??= {};
      },
      schema: {
        tags,
        summary: 'Generate a single-use registration key',
        description:
          'The `key` is returned only here; store it or hand it over now. With `roleIds`, a registration using the key ' +
          'may ask only for those roles (403 `The registration key does not grant role <id>` otherwise); unknown ' +
          'roleIds: 400.',
        body: CreateKeyBodySchema,
        response: { 201: RegistrationKeySchema },
      },
    },
    async (request, reply) => {
      const body = request.body;
      const key = await app.transaction((trx) => keys.generateKey(trx, request.actor.username, body));
      return reply.code(201).send(key);
    },
  );

  app.get(
    '/admin/registration-keys',
    {
      config,
      schema: { tags, summary: 'List registration keys (without the keys themselves)', response: { 200: Type.Array(RegistrationKeySchema) } },
    },
    async () => keys.listKeys(app.db),
  );

  app.delete(
    '/admin/registration-keys/:id',
    {
      config,
      schema: {
        tags,
        summary: 'Revoke an unused registration key',
        description: 'A key that was already used cannot be revoked: 409.',
        params: IdParams,
        response: { 204: NoContent, 409: ErrorAnswer('The key was already used') },
      },
    },
    async (request, reply) => {
      await app.transaction((trx) => keys.revokeKey(trx, request.actor.username, request.params.id));
      return reply.code(204).send(null);
    },
  );
};
