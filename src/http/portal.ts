// Serves the administration portal (the built SPA in portal/dist) at /portal/, with
// `/` redirecting there. Deep links such as /portal/customers/123 get index.html so the
// client-side router can take over; missing assets stay 404. None of these routes
// appear in the OpenAPI document. Without a build (portal/dist absent) the API still
// starts: a warning is logged and the portal is skipped.
import { existsSync } from 'node:fs';
import { dirname, extname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import fastifyStatic from '@fastify/static';
import { portalSecurityHeaders } from './security-headers.js';

const PORTAL_PREFIX = '/portal';
/** portal/dist, both from src/http (tsx, tests) and dist/http (compiled). */
const DEFAULT_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../portal/dist');

export async function registerPortal(app: FastifyInstance, root: string = DEFAULT_ROOT): Promise<void> {
  if (!existsSync(join(root, 'index.html'))) {
    app.log.warn({ root }, 'portal build not found (run `npm run build`); the admin portal is not served');
    return;
  }

  const hide = { schema: { hide: true } };
  app.get('/', hide, (_request, reply) => reply.redirect(`${PORTAL_PREFIX}/`));
  app.get(PORTAL_PREFIX, hide, (_request, reply) => reply.redirect(`${PORTAL_PREFIX}/`));

  await app.register(
    async (scope) => {
      scope.addHook('onRequest', portalSecurityHeaders);
      await scope.register(fastifyStatic, {
        root,
        prefix: '/',
        schemaHide: true,
        index: 'index.html',
        // Hashed asset names never change content; the page itself must always be fresh.
        setHeaders: (reply, path) => {
          reply.header('cache-control', path.includes('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache');
        },
      });
      // A path the SPA owns (no file extension) gets the app shell; anything else is a real 404.
      scope.setNotFoundHandler((request, reply) => {
        const path = request.url.split('?')[0] ?? '';
        if ((request.method === 'GET' || request.method === 'HEAD') && extname(path) === '') {
          return reply.header('cache-control', 'no-cache').sendFile('index.html');
        }
        return reply.code(404).send({ error: `Route ${request.method} ${path} not found` });
      });
    },
    { prefix: PORTAL_PREFIX },
  );
}
