// The OpenAPI 3.1 document, generated from the route schemas, at /openapi.json, and a
// readable reference page at /docs.
import type { FastifyInstance } from 'fastify';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';

export async function registerOpenApi(app: FastifyInstance): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Licensing and Customer Management API',
        version: '1.0.0',
        description:
          'Staff, roles, customers, products, licenses, orders and the audit log; the public license ' +
          'validation endpoint and the marketplace webhook. Errors are `{"error": "..."}`.',
      },
      components: {
        securitySchemes: {
          bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
          basicAuth: { type: 'http', scheme: 'basic' },
        },
      },
    },
  });
  await app.register(swaggerUi, { routePrefix: '/docs' });
  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
}
