// PATCH sets the fields given and keeps the others. Unknown fields are ignored, as in
// every body here (schemas allow additional properties), but a body that names no field
// the route can change would be an UPDATE with nothing to set: it is refused, 400, on
// every PATCH route, present and future (docs/decisions.md "Safe by default").
import type { FastifyInstance, preHandlerHookHandler, RouteOptions } from 'fastify';
import { hookList } from './authenticate.js';
import { badRequest } from './errors.js';

export const NOTHING_TO_CHANGE = 'Body names no field to change';

/** Body fields that guard a change rather than make one (a license's expected `version`). */
const PRECONDITIONS = new Set(['version']);

/** The fields a PATCH body schema lets a caller change. */
export function changeableFields(bodySchema: unknown): Set<string> {
  const properties = (bodySchema as { properties?: Record<string, unknown> } | undefined)?.properties ?? {};
  return new Set(Object.keys(properties).filter((field) => !PRECONDITIONS.has(field)));
}

/** 400 unless `body` names at least one of `fields`; the message lists what was ignored. */
export function assertChangesSomething(body: unknown, fields: ReadonlySet<string>): void {
  const given = body !== null && typeof body === 'object' ? Object.keys(body) : [];
  if (given.some((field) => fields.has(field))) return;
  const unknown = given.filter((field) => !PRECONDITIONS.has(field));
  if (unknown.length === 0) throw badRequest(NOTHING_TO_CHANGE);
  const named = unknown.slice(0, 5).map((field) => JSON.stringify(field.slice(0, 50))).join(', ');
  throw badRequest(`${NOTHING_TO_CHANGE} (unknown fields are ignored: ${named}${unknown.length > 5 ? ', …' : ''})`);
}

const isPatch = (route: RouteOptions) => (Array.isArray(route.method) ? route.method : [route.method]).includes('PATCH');

export function registerPatchBodyCheck(app: FastifyInstance): void {
  // preHandler: after schema validation (which names a field of the wrong type), before the handler.
  app.addHook('onRoute', (route) => {
    if (!isPatch(route) || !route.schema?.body) return;
    const fields = changeableFields(route.schema.body);
    const check: preHandlerHookHandler = (request, _reply, done) => {
      try {
        assertChangesSomething(request.body, fields);
        done();
      } catch (err) {
        done(err as Error);
      }
    };
    route.preHandler = [...hookList(route.preHandler), check];
  });
}
