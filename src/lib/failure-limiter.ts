// Counts failed guesses per key in a fixed window (login brute-force protection), in the
// rate-limit store: in memory per instance, or in Redis so every instance shares it.
//
// A guess takes its place in the window BEFORE the secret is checked (one atomic hit per
// key), so however many guesses arrive at once, at most the limit's remainder is
// evaluated: checking first and counting afterwards let every parallel guess through. A
// wrong guess keeps its place; a right one (or one that is not a guess) gives it back.
//
// Like the rate limits, it fails open: a store outage must not lock everyone out. A key
// that is a client IP counts by its budget holder (an IPv6 client by its /64: ip-address.ts).
import { rateLimitKeyOf } from './ip-address.js';
import type { Hit, RateLimitStore } from './rate-limit-store.js';

/** A guess that may go ahead (`release` gives its place back), or the wait before the next. */
export type Reservation = { allowed: true; release(): Promise<void> } | { allowed: false; retryAfterSeconds: number };

export class FailureLimiter {
  constructor(
    private readonly store: RateLimitStore,
    private readonly name: string,
    private readonly maxFailures: number,
    private readonly windowMs: number,
    private readonly onStoreError: (err: unknown) => void,
  ) {}

  /**
   * Takes one place under every key. Refused (every place given back) when any key has
   * none left; a key whose store failed is not counted and does not refuse.
   */
  async reserve(keys: readonly string[]): Promise<Reservation> {
    const hits = await Promise.all(keys.map((key) => this.hit(key)));
    let released = false;
    const release = async () => {
      if (released) return;
      released = true;
      await Promise.all(keys.map((key, i) => (hits[i] ? this.release(key) : undefined)));
    };
    const over = hits.filter((hit): hit is Hit => hit !== null && hit.count > this.maxFailures);
    if (over.length === 0) return { allowed: true, release };
    await release();
    return { allowed: false, retryAfterSeconds: Math.max(1, ...over.map((hit) => Math.ceil(hit.resetInMs / 1000))) };
  }

  private hit(key: string): Promise<Hit | null> {
    return Promise.resolve()
      .then(() => this.store.hit(`${this.name}:${rateLimitKeyOf(key)}`, this.windowMs))
      .catch((err: unknown) => {
        this.onStoreError(err);
        return null;
      });
  }

  private release(key: string): Promise<void> {
    return Promise.resolve()
      .then(() => this.store.release(`${this.name}:${rateLimitKeyOf(key)}`))
      .catch(this.onStoreError);
  }
}
