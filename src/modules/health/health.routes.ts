import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';

const Status = Type.Object({ status: Type.String() });

export const healthRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/healthz',
    { logLevel: 'warn', schema: { tags: ['Health'], summary: 'The process is up', response: { 200: Status } } },
    async () => ({ status: 'ok' }),
  );

  app.get(
    '/readyz',
    {
      logLevel: 'warn',
      schema: { tags: ['Health'], summary: 'The database answers', response: { 200: Status, 503: Status } },
    },
    async (request, reply) => {
      try {
        await app.storage.ping();
        return { status: 'ready' };
      } catch (err) {
        request.log.warn({ err }, 'database not reachable');
        return reply.code(503).send({ status: 'database unavailable' });
      }
    },
  );
};
