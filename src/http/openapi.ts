// The OpenAPI 3.1 document, generated from the route schemas, at /openapi.json, and a
// readable reference page at /docs.
import type { FastifyInstance } from 'fastify';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { ErrorSchema } from './schemas.js';
import { documentSecurityHeaders } from './security-headers.js';

/** The error answers a route can give, from what it declares: credentials, body, id. */
function errorResponses(schema: Record<string, unknown>, isProtected: boolean): Record<string, unknown> {
  const errors: Record<string, unknown> = {};
  if (schema.body || schema.querystring) errors[400] = { ...ErrorSchema, description: 'Invalid input; the message names the field' };
  if (isProtected) {
    errors[401] = { ...ErrorSchema, description: 'Missing or invalid credentials' };
    errors[403] = { ...ErrorSchema, description: 'Lacks the required permission' };
  }
  if (schema.params) errors[404] = { ...ErrorSchema, description: 'No record with this id' };
  if (isProtected || schema.body || schema.querystring || schema.params) {
    errors[503] = {
      ...ErrorSchema,
      description: '`Service temporarily unavailable`: the database is unreachable, restarting or locked; try again after `Retry-After` (5) seconds',
    };
  }
  return errors;
}

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
  // Document the JSON error answers of every route that declares its responses.
  app.addHook('onRoute', (route) => {
    const schema = route.schema as Record<string, unknown> | undefined;
    if (!schema || schema.hide || !route.schema?.response) return;
    const declared = route.schema.response as Record<string, unknown>;
    route.schema.response = { ...errorResponses(schema, route.config?.permission !== undefined), ...declared };
  });
  await app.register(swaggerUi, { routePrefix: '/docs', uiHooks: { onRequest: documentSecurityHeaders } });
  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
}
