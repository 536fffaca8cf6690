import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ErrorAnswer } from '../../http/schemas.js';
import { clientIp } from '../../http/client-ip.js';
import { LoginBodySchema, LoginResponseSchema } from './auth.schemas.js';
import { login } from './auth.service.js';

export const authRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.post(
    '/auth/login',
    {
      schema: {
        tags: ['Authentication'],
        summary: 'Exchange username and password for a JWT',
        description:
          'Wrong username or password: 401 `Invalid username or password`. Deactivated account: 401 `Account is deactivated`. ' +
          'More than 10 failed attempts in 15 minutes from one IP: 429.',
        body: LoginBodySchema,
        response: {
          200: LoginResponseSchema,
          401: ErrorAnswer('`Invalid username or password` or `Account is deactivated`'),
          429: ErrorAnswer('Too many failed attempts from this IP; try again after `Retry-After` seconds'),
        },
      },
    },
    async (request) => login(app.db, app.tokens, app.loginLimiter, clientIp(request), request.body.username, request.body.password),
  );
};
