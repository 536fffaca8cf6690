import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { clientIp } from '../../http/client-ip.js';
import { SIGNED_IN } from '../../http/authenticate.js';
import { ErrorAnswer, NoContent } from '../../http/schemas.js';
import { LoginBodySchema, LoginResponseSchema } from './auth.schemas.js';
import { login } from './auth.service.js';
import { logout } from './logout.service.js';

export const authRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.post(
    '/auth/login',
    {
      schema: {
        tags: ['Authentication'],
        summary: 'Exchange username and password for a JWT',
        description:
          'Wrong username or password: 401 `Invalid username or password`. Deactivated account: 401 `Account is deactivated`. ' +
          'Account with two-factor sign-in and no `totp`: 401 `Two-factor code required`; a wrong or reused code: 401 ' +
          '`Invalid two-factor code` (counted like a wrong password). ' +
          'More than 10 failed attempts in 15 minutes from one IP: 429.',
        body: LoginBodySchema,
        response: {
          200: LoginResponseSchema,
          401: ErrorAnswer('`Invalid username or password`, `Account is deactivated`, `Two-factor code required` or `Invalid two-factor code`'),
          429: ErrorAnswer('Too many failed attempts from this IP; try again after `Retry-After` seconds'),
        },
      },
    },
    async (request) => login(app.db, app.tokens, app.loginLimiter, clientIp(request), request.body),
  );

  app.post(
    '/auth/logout',
    {
      config: { permission: SIGNED_IN },
      schema: {
        tags: ['Authentication'],
        summary: 'Sign out: the presented login token stops working on every instance',
        description: 'Only a login token (Bearer JWT) can be signed out; Basic credentials: 400.',
        response: { 204: NoContent },
      },
    },
    async (request, reply) => {
      await logout(app.db, request.actor);
      return reply.code(204).send(null);
    },
  );
};
