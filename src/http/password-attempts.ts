// Guesses of a secret go through the login limit: a login's password and second-factor
// code (per client IP), and a signed-in account's current password asked again
// (password change, turning two-factor sign-in on or off: per client IP and per
// account), so a stolen session cannot guess it without limit. Each guess takes its
// place in the limit before the secret is checked (src/lib/failure-limiter.ts): parallel
// guesses get no more evaluations than the limit has left.
import { HttpError } from './errors.js';
import type { FailureLimiter } from '../lib/failure-limiter.js';
import { verifyPassword } from '../lib/secrets.js';

export const TOO_MANY_ATTEMPTS = 'Too many login attempts. Try again later.';

/**
 * Runs `guess` holding a place in the limit under every key (429 with Retry-After when
 * one has none left). A guess that throws an error `isWrong` accepts keeps its place: a
 * failed attempt. Success, or any other error, gives the place back, as such answers
 * never counted.
 */
export async function limitedGuess<T>(
  limiter: FailureLimiter,
  keys: readonly string[],
  guess: () => Promise<T>,
  isWrong: (err: unknown) => boolean,
): Promise<T> {
  const place = await limiter.reserve(keys);
  if (!place.allowed) throw new HttpError(429, TOO_MANY_ATTEMPTS, { 'retry-after': String(place.retryAfterSeconds) });
  try {
    const result = await guess();
    await place.release();
    return result;
  } catch (err) {
    if (!isWrong(err)) await place.release();
    throw err;
  }
}

export interface PasswordAttempts {
  /** Whether `password` is the account's; 429 while the IP or the account has no guess left. */
  verify(passwordHash: string, password: string): Promise<boolean>;
}

const WRONG_PASSWORD = Symbol('wrong password');

export function passwordAttempts(limiter: FailureLimiter, clientIp: string, staffId: string): PasswordAttempts {
  const keys = [clientIp, `staff:${staffId}`];
  return {
    verify: (passwordHash, password) =>
      limitedGuess(
        limiter,
        keys,
        async () => {
          if (!(await verifyPassword(passwordHash, password))) throw WRONG_PASSWORD;
          return true;
        },
        (err) => err === WRONG_PASSWORD,
      ).catch((err: unknown) => {
        if (err === WRONG_PASSWORD) return false;
        throw err;
      }),
  };
}
