// Security headers. Pages a browser renders (the portal, /docs) get helmet's full set: a
// Content-Security-Policy allowing only the service's own files, no framing, HSTS, and
// the rest. Every other answer (JSON, the webhook's plain text) gets
// `X-Content-Type-Options: nosniff`, the one header that matters for a response no
// browser renders as a page; the others cost every API call (the hot validation path
// most) for nothing.
import type { FastifyInstance, onRequestHookHandler } from 'fastify';
import helmet, { type HelmetOptions } from 'helmet';
import type { IncomingMessage, ServerResponse } from 'node:http';

/** The headers helmet sets for `options`, computed once: they do not depend on the request. */
function helmetHeaders(options: HelmetOptions): Record<string, string> {
  const headers: Record<string, string> = {};
  const response = {
    setHeader: (name: string, value: string | number) => void (headers[name.toLowerCase()] = String(value)),
    removeHeader: (name: string) => void delete headers[name.toLowerCase()],
  };
  helmet(options)({} as IncomingMessage, response as unknown as ServerResponse, (err?: unknown) => {
    if (err) throw err;
  });
  return headers;
}

// Plain-HTTP deployments must keep working, so the CSP does not ask browsers to upgrade requests to HTTPS.
const DOCUMENT_HEADERS = helmetHeaders({ contentSecurityPolicy: { directives: { upgradeInsecureRequests: null } } });

// The portal loads its styles from its own files only and sets element styles through the
// DOM (React's style prop), which CSP does not govern: no 'unsafe-inline' and no https:
// in style-src, so an injected <style> or style attribute cannot restyle the admin pages.
// /docs keeps helmet's default: Swagger UI is not ours to vouch for.
const PORTAL_HEADERS = helmetHeaders({
  contentSecurityPolicy: { directives: { upgradeInsecureRequests: null, styleSrc: ["'self'"] } },
});

/** onRequest hook for the scopes that serve browser pages (portal, API docs). */
export const documentSecurityHeaders: onRequestHookHandler = (_request, reply, done) => {
  reply.headers(DOCUMENT_HEADERS);
  done();
};

/** onRequest hook of the portal: the document headers with the stricter style-src. */
export const portalSecurityHeaders: onRequestHookHandler = (_request, reply, done) => {
  reply.headers(PORTAL_HEADERS);
  done();
};

export function registerSecurityHeaders(app: FastifyInstance): void {
  app.addHook('onRequest', (_request, reply, done) => {
    reply.header('x-content-type-options', 'nosniff');
    done();
  });
}
