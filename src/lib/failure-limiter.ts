// Counts failures per key in a fixed window (login brute-force protection), in the
// rate-limit store: in memory per instance, or in Redis so every instance shares it.
// Like the rate limits, it fails open: a store outage must not lock everyone out. A key
// that is a client IP counts by its budget holder (an IPv6 client by its /64: ip-address.ts).
import { rateLimitKeyOf } from './ip-address.js';
import type { RateLimitStore } from './rate-limit-store.js';

export class FailureLimiter {
  constructor(
    private readonly store: RateLimitStore,
    private readonly name: string,
    private readonly maxFailures: number,
    private readonly windowMs: number,
    private readonly onStoreError: (err: unknown) => void,
  ) {}

  /** Seconds until `key` may try again, or 0 when it is not blocked. */
  async retryAfterSeconds(key: string): Promise<number> {
    const window = await Promise.resolve(this.store.peek(`${this.name}:${rateLimitKeyOf(key)}`)).catch((err: unknown) => {
      this.onStoreError(err);
      return null;
    });
    if (!window || window.count < this.maxFailures) return 0;
    return Math.max(1, Math.ceil(window.resetInMs / 1000));
  }

  async recordFailure(key: string): Promise<void> {
    await Promise.resolve(this.store.hit(`${this.name}:${rateLimitKeyOf(key)}`, this.windowMs)).catch(this.onStoreError);
  }
}
