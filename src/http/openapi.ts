// The OpenAPI 3.1 document, generated from the route schemas, at /openapi.json, and a
// readable reference page at /docs. Every answer a route can give is declared from what
// the route itself declares (permission, body, query, path id, rate limit), so a new
// route is documented completely without listing its errors by hand.
import type { FastifyInstance, RouteOptions } from 'fastify';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { TSchema } from '@sinclair/typebox';
import { ErrorSchema } from './schemas.js';
import { isRateLimitHook } from './rate-limit.js';
import { documentSecurityHeaders } from './security-headers.js';
import { liftNamedSchemas, loadNamedSchemas } from './openapi-components.js';
import { hookList } from './authenticate.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** What only the API document needs to know about a route. */
    openapi?: {
      /** The body may be left out (the route fills in a default). */
      optionalBody?: boolean;
      /** Documents this body instead of the (more lenient) one the route validates with. */
      documentedBody?: TSchema;
    };
  }
}

const TEXT_ERROR = { content: { 'text/plain': { schema: { type: 'string', description: 'What went wrong' } } } };

/** The error answers a route can give, from what it declares. */
function errorResponses(route: RouteOptions, textErrors: boolean): Record<string, unknown> {
  const schema = route.schema as Record<string, unknown>;
  const isProtected = route.config?.permission !== undefined;
  const hasInput = Boolean(schema.body || schema.querystring || schema.params);
  const error = (description: string) => (textErrors ? { description, ...TEXT_ERROR } : { ...ErrorSchema, description });
  const errors: Record<string, unknown> = {};
  if (hasInput) {
    const notJson = schema.body && !textErrors ? ', or a body that is not JSON' : '';
    errors[400] = error(`Invalid input${notJson}; the message names the field`);
  }
  if (isProtected) {
    errors[401] = error('Missing or invalid credentials');
    errors[403] = error('Lacks the required permission');
  }
  if (schema.params) errors[404] = error('No record with this id');
  if (schema.body) errors[413] = error('Request body is too large');
  // Basic credentials count as login attempts: a protected route shares the login lockout.
  if (isProtected || hookList(route.onRequest).some(isRateLimitHook)) {
    errors[429] = error('Too many requests from this client; try again after `Retry-After` seconds');
  }
  if (isProtected || hasInput) {
    errors[503] = error(
      '`Service temporarily unavailable`: the database is unreachable, restarting or locked; try again after `Retry-After` (5) seconds',
    );
  }
  return errors;
}

/** Whether the route answers plain text (an answer declares text/plain; a file download's errors stay JSON). */
function answersText(declared: Record<string, unknown>): boolean {
  return Object.values(declared).some((answer) => {
    const content = (answer as { content?: Record<string, unknown> }).content;
    return content !== undefined && 'text/plain' in content;
  });
}

/** `GET /licenses/{id}/license-file` → `getLicensesByIdLicenseFile`. */
export function operationIdOf(method: string, path: string): string {
  const words = path
    .split('/')
    .filter(Boolean)
    .flatMap((segment) => (segment.startsWith('{') ? ['by', segment.slice(1, -1)] : segment.split(/[^A-Za-z0-9]+/)))
    .filter(Boolean);
  return method.toLowerCase() + words.map((word) => word[0]!.toUpperCase() + word.slice(1)).join('');
}

const HEADERS = {
  RetryAfter: { description: 'Seconds to wait before trying again', schema: { type: 'integer', minimum: 1 } },
  WWWAuthenticate: { description: 'The scheme to authenticate with: `Bearer realm="licensing"`', schema: { type: 'string' } },
};
const HEADERS_BY_STATUS: Record<string, Record<string, { $ref: string }>> = {
  401: { 'WWW-Authenticate': { $ref: '#/components/headers/WWWAuthenticate' } },
  429: { 'Retry-After': { $ref: '#/components/headers/RetryAfter' } },
  503: { 'Retry-After': { $ref: '#/components/headers/RetryAfter' } },
};

/** @fastify/swagger's wording for an answer whose schema has no description. */
const UNDESCRIBED = 'Default Response';
const PLAIN_WORDING: Record<string, string> = { 200: 'OK', 201: 'Created', 204: 'No content', 503: 'Service unavailable' };

type Operation = {
  operationId?: string;
  security?: unknown[];
  requestBody?: { required?: boolean };
  responses?: Record<string, { description?: string; headers?: Record<string, unknown> }>;
  'x-optional-body'?: boolean;
};

/** Completes each operation: its id, `security: []` when public, the error headers. */
function completeOperations(document: Record<string, any>): void {
  for (const [path, item] of Object.entries(document.paths as Record<string, Record<string, Operation>>)) {
    for (const [method, operation] of Object.entries(item)) {
      operation.operationId ??= operationIdOf(method, path);
      operation.security ??= [];
      if (operation['x-optional-body'] && operation.requestBody) operation.requestBody.required = false;
      delete operation['x-optional-body'];
      for (const [status, answer] of Object.entries(operation.responses ?? {})) {
        if (answer.description === UNDESCRIBED && PLAIN_WORDING[status]) answer.description = PLAIN_WORDING[status];
        if (HEADERS_BY_STATUS[status]) answer.headers = { ...HEADERS_BY_STATUS[status], ...answer.headers };
      }
    }
  }
  document.components.headers = { ...HEADERS, ...document.components.headers };
}

export async function registerOpenApi(app: FastifyInstance): Promise<void> {
  const named = await loadNamedSchemas();
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Licensing and Customer Management API',
        version: '1.0.0',
        description:
          'Staff, roles, customers, products, licenses, orders and the audit log; the public license ' +
          'validation endpoint and the marketplace webhook. Errors are `{"error": "..."}` ' +
          '(plain text on the webhook).',
      },
      servers: [{ url: '/', description: 'This service (the host that serves this document)' }],
      components: {
        securitySchemes: {
          bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
          basicAuth: { type: 'http', scheme: 'basic' },
        },
      },
    },
    transformObject: (documentObject) => {
      const document = (documentObject as { openapiObject: Record<string, any> }).openapiObject;
      completeOperations(document);
      return liftNamedSchemas(document, named);
    },
  });
  // Document the error answers of every route that declares its responses.
  app.addHook('onRoute', (route) => {
    const schema = route.schema as Record<string, unknown> | undefined;
    if (!schema || schema.hide || !route.schema?.response) return;
    const declared = route.schema.response as Record<string, unknown>;
    const generic = errorResponses(route, answersText(declared));
    // A bare `404: ErrorSchema` takes the generic wording ("No record with this id").
    const own = Object.entries(declared).filter(([status, answer]) => !(answer === ErrorSchema && generic[status]));
    route.schema.response = { ...generic, ...Object.fromEntries(own) };
    const documented = route.config?.openapi;
    if (documented?.optionalBody) schema['x-optional-body'] = true;
    if (documented?.documentedBody) {
      const body = documented.documentedBody;
      route.config!.swaggerTransform = ({ schema: routeSchema, url }) => ({ schema: { ...routeSchema, body }, url });
    }
  });
  await app.register(swaggerUi, { routePrefix: '/docs', uiHooks: { onRequest: documentSecurityHeaders } });
  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
}
