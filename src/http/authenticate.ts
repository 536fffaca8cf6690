// One permission mechanism: a route declares `config.permission` (a permission string
// or MASTER_ADMIN); an onRequest hook added to that route authenticates the caller
// (Bearer JWT, Bearer API token or Basic), re-reads the account and its roles, and
// checks the permission before the body is even parsed. Routes without
// `config.permission` are public.
import type { FastifyInstance, FastifyRequest, onRequestAsyncHookHandler } from 'fastify';
import type { Actor } from './actor.js';
import { actorFromStaff } from '../modules/auth/actor.js';
import { hasPermission } from './permissions.js';
import { checkCredentials, INVALID_LOGIN } from '../modules/auth/auth.service.js';
import { limitedGuess } from './password-attempts.js';
import { actorFromApiToken, isApiToken } from '../modules/api-tokens/api-tokens.service.js';
import { isRevoked } from '../modules/auth/revoked-tokens.repository.js';
import { passwordChangeCutoff } from '../modules/auth/tokens.js';
import { findStaffById } from '../modules/staff/staff.repository.js';
import { clientIp } from './client-ip.js';
import { HttpError } from './errors.js';

export const MASTER_ADMIN = 'masterAdmin';
/**
 * Any signed-in account (login token or Basic), but not an API token: a leaked token
 * must not be able to mint tokens or change the account's password or two-factor.
 */
export const SIGNED_IN = 'signedIn';
export const API_TOKEN_REFUSED = 'API tokens cannot manage accounts or tokens; sign in with a password';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Permission the caller must hold; MASTER_ADMIN for Master Admin only routes. */
    permission?: string;
    /** Refuse API tokens even when they hold the permission (password and token routes). */
    refuseApiTokens?: boolean;
  }
  interface FastifyRequest {
    /** The authenticated caller; set on every route that declares a permission. */
    actor: Actor;
  }
  interface FastifyInstance {
    /** Every route that declares a permission, as registered (the permission sweep test reads it). */
    protectedRoutes: readonly ProtectedRoute[];
  }
}

export interface ProtectedRoute {
  method: string;
  url: string;
  permission: string;
}

const CHALLENGE = { 'www-authenticate': 'Bearer realm="licensing"' };
const unauthorized = (message: string) => new HttpError(401, message, CHALLENGE);

async function authenticate(app: FastifyInstance, request: FastifyRequest): Promise<Actor> {
  const header = request.headers.authorization;
  if (!header) throw unauthorized('Authentication required');
  const [scheme = '', credentials = ''] = header.trim().split(/\s+/, 2);

  if (scheme.toLowerCase() === 'bearer') {
    if (isApiToken(credentials)) {
      const actor = await actorFromApiToken(app.db, credentials);
      if (!actor) throw unauthorized('Invalid or expired token');
      return actor;
    }
    const claims = credentials ? await app.tokens.verify(credentials) : null;
    const staff = claims ? await findStaffById(app.db, claims.staffId) : undefined;
    if (!claims || !staff || staff.active !== 1) throw unauthorized('Invalid or expired token');
    // Issued before the last password change, or signed out (on any instance).
    if (claims.iat < passwordChangeCutoff(staff.password_changed_at) || (await isRevoked(app.db, claims.jti))) {
      throw unauthorized('Invalid or expired token');
    }
    const actor = await actorFromStaff(app.db, staff);
    return { ...actor, credential: { kind: 'login', jti: claims.jti, expiresAtSeconds: claims.exp } };
  }

  if (scheme.toLowerCase() === 'basic') {
    const decoded = Buffer.from(credentials, 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    // PostgreSQL text cannot hold NUL: such a username names no account, whatever the database.
    if (colon < 0 || decoded.includes('\u0000')) throw unauthorized('Malformed Basic credentials');
    // Basic credentials are a password guess like a login: same brute-force limit.
    try {
      const actor = await limitedGuess(
        app.loginLimiter,
        [clientIp(request)],
        () => checkCredentials(app.db, decoded.slice(0, colon), decoded.slice(colon + 1)),
        (err) => err instanceof HttpError && err.message === INVALID_LOGIN,
      );
      return { ...actor, credential: { kind: 'basic' } };
    } catch (err) {
      if (!(err instanceof HttpError) || err.statusCode === 429) throw err;
      throw unauthorized(err.message);
    }
  }

  throw unauthorized('Authentication required');
}

/** A route's own hooks of one kind (absent, one, or a list) as a list. */
export const hookList = <T>(hooks: T | T[] | undefined): T[] => (hooks === undefined ? [] : Array.isArray(hooks) ? hooks : [hooks]);

export function registerAuthentication(app: FastifyInstance): void {
  app.decorateRequest('actor', null as unknown as Actor);
  const protectedRoutes: ProtectedRoute[] = [];
  app.decorate('protectedRoutes', protectedRoutes);

  // Only routes that declare a permission get the hook: public routes (validation, the
  // webhook) pay nothing for it.
  app.addHook('onRoute', (route) => {
    const permission = route.config?.permission;
    if (permission === undefined) return;
    const refuseApiTokens = permission === SIGNED_IN || route.config?.refuseApiTokens === true;
    for (const method of [route.method].flat()) protectedRoutes.push({ method, url: route.url, permission });
    const check: onRequestAsyncHookHandler = async (request) => {
      const actor = await authenticate(app, request);
      if (permission === MASTER_ADMIN) {
        if (!actor.isMasterAdmin) throw new HttpError(403, 'Master Admin only');
      } else if (permission !== SIGNED_IN && !hasPermission(actor, permission)) {
        throw new HttpError(403, `Missing permission: ${permission}`);
      }
      // A leaked token must not take over its account (nor the Master Admin's): passwords,
      // second factors and new tokens need a password sign-in.
      if (refuseApiTokens && actor.credential?.kind === 'apiToken') throw new HttpError(403, API_TOKEN_REFUSED);
      request.actor = actor;
    };
    // First, before any hook the route brings itself.
    route.onRequest = [check, ...hookList(route.onRequest)];

    // Document the requirement in the OpenAPI description.
    if (!route.schema) return;
    const requirement =
      permission === SIGNED_IN
        ? 'Any signed-in account (login token or Basic; not an API token)'
        : (permission === MASTER_ADMIN ? 'Master Admin only' : `Requires permission \`${permission}\``) +
          (refuseApiTokens ? ' (login token or Basic; not an API token)' : '');
    // GET routes share their schema object with the HEAD route Fastify adds: note it once.
    if (route.schema.description?.includes(requirement)) return;
    Object.assign(route.schema, {
      security: [{ bearerAuth: [] }, { basicAuth: [] }],
      description: [route.schema.description, requirement].filter(Boolean).join('\n\n'),
    });
  });
}
