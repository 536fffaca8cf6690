// The generic HTTP layer as named plugins: the rate-limit store (before sign-in, whose
// failure limiter counts in it); then, once sign-in exists, what every route passes through
// (security headers, body validation, the error handler, the authentication + permission
// hook, NUL rejection, PATCH bodies that name nothing to change, the OpenAPI document, which must see the routes as they are added);
// then the portal, after the API routes (its fallback answers what they do not).
import fp from 'fastify-plugin';
import type { FastifyPluginAsync, RawServerDefault } from 'fastify';
import { registerAuthentication } from './authenticate.js';
import { registerErrorHandling } from './errors.js';
import { registerOpenApi } from './openapi.js';
import { registerPortal } from './portal.js';
import { registerRateLimitStore } from './rate-limit.js';
import { registerNulRejection } from './reject-nul.js';
import { registerPatchBodyCheck } from './patch-bodies.js';
import { registerSecurityHeaders } from './security-headers.js';
import { registerValidation } from './validation.js';

export const rateLimitPlugin = fp(async (app) => registerRateLimitStore(app), { name: 'rate-limit', decorators: { fastify: ['config'] } });

export const httpPlugin = fp(
  async (app) => {
    registerSecurityHeaders(app);
    registerValidation(app);
    registerErrorHandling(app);
    registerAuthentication(app);
    registerNulRejection(app);
    registerPatchBodyCheck(app);
    await registerOpenApi(app);
  },
  // Authentication reads accounts and tokens on every protected request; Basic sign-ins count failures.
  { name: 'http', dependencies: ['storage', 'auth'], decorators: { fastify: ['tokens', 'loginLimiter'] } },
);

/** The API's routes, one plugin per module, in the order of the API document. */
export const routesPlugin = (routes: readonly FastifyPluginAsync<any, RawServerDefault, any>[]) =>
  fp(
    async (app) => {
      for (const route of routes) await app.register(route);
    },
    // Timed by metrics' hook and checked by http's, both added before any route.
    { name: 'routes', dependencies: ['http', 'metrics'] },
  );

export const portalPlugin = fp((app) => registerPortal(app), { name: 'portal', dependencies: ['routes'] });
