// The public JWK Set and the Master Admin's signing keys: create next, activate, delete.
import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { MASTER_ADMIN } from '../../http/authenticate.js';
import { ErrorSchema, NoContent } from '../../http/schemas.js';
import { CreateSigningKeyBodySchema, JwkSetSchema, KidParams, SigningKeySchema } from './signing.schemas.js';
import * as signing from './signing.service.js';
import { clock } from '../../lib/clock.js';

const tags = ['Signing keys'];
const config = { permission: MASTER_ADMIN };

export const signingRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const startedAt = clock.now();
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
          'Order: the current key, the next key (published before it signs, so clients can ship it), then retired keys, ' +
          'which stay listed until the Master Admin deletes them.',
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
    {
      config,
      schema: { tags, summary: 'List signing keys, newest first, with when each last signed (public data only)', response: { 200: Type.Array(SigningKeySchema) } },
    },
    async () => signing.listSigningKeys(app.db, ring.configured, startedAt, ring.lastSignedHere),
  );

  app.post(
    '/admin/signing-keys',
    {
      config: { ...config, openapi: { optionalBody: true } },
      // The body is optional: no body creates a next key.
      preValidation: async (request) => {
        request.body ??= {};
      },
      schema: {
        tags,
        summary: 'Create a signing key: next (published, never signs) or, with activateNow, current at once',
        description:
          'Safe rotation: create a next key, ship a client release that pins the new JWK Set, activate the key when you like, ' +
          'delete the old key once no installed copy needs it. Clients that pin only the old set keep verifying meanwhile: ' +
          'they list their kids in Receipt-Key-Ids and retired keys sign for them. activateNow (a leaked key) makes the new ' +
          'key current and retires the current one in one step. Other instances follow within a second.',
        body: CreateSigningKeyBodySchema,
        response: {
          201: SigningKeySchema,
          409: { ...ErrorSchema, description: 'SIGNING_KEY is configured, or a next key exists already (without activateNow)' },
        },
      },
    },
    async (request, reply) => {
      const activateNow = request.body.activateNow === true;
      const key = await app.transaction((trx) =>
        signing.createSigningKey(trx, app.storage, request.actor.username, ring.configured, activateNow),
      );
      ring.invalidate();
      return reply.code(201).send(key);
    },
  );

  app.post(
    '/admin/signing-keys/:kid/activate',
    {
      config,
      schema: {
        tags,
        summary: 'Activate the next key: it signs from now on, the current key is retired',
        description: 'The retired key stays published and signs for clients that pin only it, until you delete it.',
        params: KidParams,
        response: {
          200: SigningKeySchema,
          404: { ...ErrorSchema, description: 'No such key' },
          409: { ...ErrorSchema, description: 'The key is not next, or SIGNING_KEY is configured' },
        },
      },
    },
    async (request) => {
      const key = await app.transaction((trx) =>
        signing.activateSigningKey(trx, app.storage, request.actor.username, request.params.kid, ring.configured),
      );
      ring.invalidate();
      return key;
    },
  );

  app.delete(
    '/admin/signing-keys/:kid',
    {
      config,
      schema: {
        tags,
        summary: 'Delete a next or retired signing key (what it signed no longer verifies; it never signs again)',
        description:
          'The kill switch for a leaked key: clients that pin only it go UNVERIFIED (then VALID_OFFLINE within their grace). ' +
          'Other instances stop using it within a second.',
        params: KidParams,
        response: { 204: NoContent, 409: { ...ErrorSchema, description: 'The key is current' } },
      },
    },
    async (request, reply) => {
      await app.transaction((trx) => signing.deleteSigningKey(trx, request.actor.username, request.params.kid, ring.configured));
      ring.invalidate();
      return reply.code(204).send(null);
    },
  );
};
