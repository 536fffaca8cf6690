// The public JWK Set and the Master Admin's key rotation.
import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { MASTER_ADMIN } from '../../http/authenticate.js';
import { ErrorSchema, NoContent } from '../../http/schemas.js';
import { JwkSetSchema, KidParams, SigningKeySchema } from './signing.schemas.js';
import * as signing from './signing.service.js';

const tags = ['Signing keys'];
const config = { permission: MASTER_ADMIN };

export const signingRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const startedAt = Date.now();
  const ring = app.signingKeys;

  app.get(
    '/.well-known/jwks.json',
    {
      logLevel: 'warn',
      schema: {
        tags,
        summary: 'Public keys that verify validation receipts and license files (public)',
        description:
          'Clients should pin this set at build time rather than fetch it at run time: a fake server could serve its own. ' +
          'Retired keys stay listed until the Master Admin deletes them.',
        response: { 200: JwkSetSchema },
      },
    },
    async (_request, reply) => {
      // no-cache: a rotation or deletion shows at once (the portal reads this set too).
      reply.header('cache-control', 'no-cache');
      return ring.jwks();
    },
  );

  app.get(
    '/admin/signing-keys',
    { config, schema: { tags, summary: 'List signing keys, newest first (public data only)', response: { 200: Type.Array(SigningKeySchema) } } },
    async () => signing.listSigningKeys(app.db, ring.configured, startedAt),
  );

  app.post(
    '/admin/signing-keys',
    {
      config,
      schema: {
        tags,
        summary: 'Rotate: make a new key current and retire the old one',
        description: 'The retired key stays published in the JWK Set. Other instances start signing with the new key within a second.',
        response: { 201: SigningKeySchema, 409: { ...ErrorSchema, description: 'SIGNING_KEY is configured' } },
      },
    },
    async (request, reply) => {
      const key = await app.transaction((trx) => signing.rotateSigningKey(trx, app.storage, request.actor.username, ring.configured));
      ring.invalidate();
      return reply.code(201).send(key);
    },
  );

  app.delete(
    '/admin/signing-keys/:kid',
    {
      config,
      schema: {
        tags,
        summary: 'Delete a retired signing key (what it signed no longer verifies)',
        params: KidParams,
        response: { 204: NoContent, 409: { ...ErrorSchema, description: 'The key is current' } },
      },
    },
    async (request, reply) => {
      await app.transaction((trx) => signing.deleteSigningKey(trx, request.actor.username, request.params.kid, ring.configured));
      return reply.code(204).send(null);
    },
  );
};
