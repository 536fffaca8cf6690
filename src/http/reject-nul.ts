// PostgreSQL text cannot hold the NUL character (SQLite can). One rule for every route,
// so no such value ever reaches a query and fails there with a 500: a NUL in the body
// or the query string is a 400 naming the field; a path id with a NUL names no record,
// so it is looked up as the empty id, which no record has: the module's own 404.
import type { FastifyInstance, preHandlerHookHandler } from 'fastify';
import { findNulPath } from '../lib/text.js';
import { hookList } from './authenticate.js';
import { badRequest } from './errors.js';

// Callback style: a hot route (validation) should not pay for a promise per request.
const rejectNul: preHandlerHookHandler = (request, _reply, done) => {
  const inBody = findNulPath(request.body);
  if (inBody !== null) return done(badRequest(`${inBody || 'Request body'} must not contain NUL characters`));
  const inQuery = findNulPath(request.query);
  if (inQuery !== null) return done(badRequest(`${inQuery} must not contain NUL characters`));
  const params = request.params as Record<string, string> | undefined;
  for (const [name, value] of Object.entries(params ?? {})) if (value.includes('\u0000')) params![name] = '';
  done();
};

export function registerNulRejection(app: FastifyInstance): void {
  // preHandler: after authentication and schema validation, before the handler.
  app.addHook('onRoute', (route) => {
    route.preHandler = [...hookList(route.preHandler), rejectNul];
  });
}
