import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { clientIp } from '../../http/client-ip.js';
import { login } from './auth.service.js';

const LoginBody = Type.Object({
  username: Type.String({ maxLength: 200, examples: ['admin'] }),
  password: Type.String({ maxLength: 1024, examples: ['correct horse battery staple'] }),
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
          'More than 10 failed attempts in 15 minutes from one IP: 429.',
        body: LoginBody,
        response: { 200: LoginResponse },
      },
    },
    async (request) => login(app.db, app.tokens, app.loginLimiter, clientIp(request), request.body.username, request.body.password),
  );
};
