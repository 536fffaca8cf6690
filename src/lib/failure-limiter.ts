// Counts failures per key in a fixed window (used for login brute-force protection).
// In memory: each instance keeps its own counts.
export class FailureLimiter {
  private readonly failures = new Map<string, { count: number; resetAt: number }>();

  constructor(
    private readonly maxFailures: number,
    private readonly windowMs: number,
  ) {}

  /** Seconds until `key` may try again, or 0 when it is not blocked. */
  retryAfterSeconds(key: string, now = Date.now()): number {
    const entry = this.failures.get(key);
    if (!entry || entry.resetAt <= now || entry.count < this.maxFailures) return 0;
    return Math.ceil((entry.resetAt - now) / 1000);
  }

  recordFailure(key: string, now = Date.now()): void {
    const entry = this.failures.get(key);
    if (!entry || entry.resetAt <= now) {
      if (this.failures.size >= 100_000) this.prune(now);
      this.failures.set(key, { count: 1, resetAt: now + this.windowMs });
    } else {
      entry.count += 1;
    }
  }

  private prune(now: number): void {
    for (const [key, entry] of this.failures) if (entry.resetAt <= now) this.failures.delete(key);
  }
}
