// Sign-in in this instance: the login token service (its secret from the config or the
// database) and the login-failure limiter (counted in the shared rate-limit store).
import fp from 'fastify-plugin';
import { FailureLimiter } from '../../lib/failure-limiter.js';
import { MINUTE_MS } from '../../lib/time.js';
import { createTokenService, resolveJwtSecret, type TokenService } from './tokens.js';

declare module 'fastify' {
  interface FastifyInstance {
    tokens: TokenService;
    loginLimiter: FailureLimiter;
  }
}

const LOGIN_MAX_FAILURES = 10;
const LOGIN_WINDOW_MS = 15 * MINUTE_MS;

export const authPlugin = fp(
  async (app) => {
    app.decorate('tokens', createTokenService(await resolveJwtSecret(app.db, app.config.jwtSecret)));
    app.decorate(
      'loginLimiter',
      new FailureLimiter(app.rateLimitStore, 'login', LOGIN_MAX_FAILURES, LOGIN_WINDOW_MS, (err) =>
        app.log.error({ err }, 'login limiter: store unavailable, attempt let through'),
      ),
    );
  },
  { name: 'auth', dependencies: ['storage', 'rate-limit'] },
);
