// A signed-in account's current password, asked again (password change, two-factor
// removal), is a password guess like a login: wrong answers count toward the login limit,
// per client IP and per account, so a stolen session cannot guess it without limit.
import { HttpError } from '../../http/errors.js';
import type { FailureLimiter } from '../../lib/failure-limiter.js';

export const TOO_MANY_ATTEMPTS = 'Too many login attempts. Try again later.';

export interface PasswordAttempts {
  /** Throws 429 (with Retry-After) while the IP or the account is over the limit. */
  assertAllowed(): Promise<void>;
  /** Counts a wrong password against both. */
  recordFailure(): Promise<void>;
}

export function passwordAttempts(limiter: FailureLimiter, clientIp: string, staffId: string): PasswordAttempts {
  const keys = [clientIp, `staff:${staffId}`];
  return {
    async assertAllowed() {
      const wait = Math.max(...(await Promise.all(keys.map((key) => limiter.retryAfterSeconds(key)))));
      if (wait > 0) throw new HttpError(429, TOO_MANY_ATTEMPTS, { 'retry-after': String(wait) });
    },
    async recordFailure() {
      await Promise.all(keys.map((key) => limiter.recordFailure(key)));
    },
  };
}
