import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { clientIp } from '../../http/client-ip.js';
import { SIGNED_IN } from '../../http/authenticate.js';
import { NoContent } from '../../http/schemas.js';
import { login } from './auth.service.js';
import { logout } from './logout.service.js';

const LoginBody = Type.Object({
  username: Type.String({ maxLength: 200, examples: ['admin'] }),
  password: Type.String({ maxLength: 1024, examples: ['correct horse battery staple'] }),
  totp: Type.Optional(
    Type.String({
      maxLength: 64,
      description: 'For accounts with two-factor sign-in: a current 6-digit code, or an unused recovery code',
    }),
  ),
});

const LoginResponse = Type.Object({
  token: Type.String({ description: 'HS256 JWT, valid for 7 days; send as `Authorization: Bearer <token>`' }),
  user: Type.Object({
    username: Type.String(),
    isMasterAdmin: Type.Boolean(),
    permissions: Type.Array(Type.String(), { description: 'Union of the roles\' permissions; ["*"] for the Master Admin' }),
    role: Type.String({ description: 'Role names joined by ", "; "Master Admin" for the Master Admin' }),
  }),
});

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
        body: LoginBody,
        response: { 200: LoginResponse },
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
