// Fixed-window hit counters for rate limits: in memory (per instance) or in Redis
// (shared by every instance). A window starts with a key's first hit and lasts windowMs.
import { Redis } from 'ioredis';

export interface Hit {
  /** Hits in the current window, this one included. */
  count: number;
  /** Milliseconds until the window ends. */
  resetInMs: number;
}

export interface RateLimitStore {
  hit(key: string, windowMs: number): Hit | Promise<Hit>;
  /** The key's current window without counting a hit; null when it has none. */
  peek(key: string): Hit | null | Promise<Hit | null>;
  close(): Promise<void>;
}

export class MemoryRateLimitStore implements RateLimitStore {
  private readonly windows = new Map<string, { count: number; resetAt: number }>();
  private nextSweep = 0;

  hit(key: string, windowMs: number, now = Date.now()): Hit {
    if (now >= this.nextSweep) this.sweep(now, windowMs);
    let window = this.windows.get(key);
    if (!window || window.resetAt <= now) {
      window = { count: 0, resetAt: now + windowMs };
      this.windows.set(key, window);
    }
    window.count += 1;
    return { count: window.count, resetInMs: window.resetAt - now };
  }

  peek(key: string, now = Date.now()): Hit | null {
    const window = this.windows.get(key);
    return window && window.resetAt > now ? { count: window.count, resetInMs: window.resetAt - now } : null;
  }

  /** Forgets ended windows, at most once per window length, so memory stays bounded. */
  private sweep(now: number, windowMs: number): void {
    for (const [key, window] of this.windows) if (window.resetAt <= now) this.windows.delete(key);
    this.nextSweep = now + windowMs;
  }

  async close(): Promise<void> {
    this.windows.clear();
  }
}

// INCR and the expiry in one script: atomic, so instances sharing the key never lose a
// hit or leave a counter without expiry.
const HIT_SCRIPT = `
local count = redis.call('INCR', KEYS[1])
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  ttl = tonumber(ARGV[1])
end
return {count, ttl}
`;

type RedisWithHit = Redis & { rateLimitHit(key: string, windowMs: number): Promise<[number, number]> };

export class RedisRateLimitStore implements RateLimitStore {
  private readonly redis: RedisWithHit;

  constructor(
    url: string,
    private readonly keyPrefix: string,
  ) {
    // Fail fast rather than queue requests while Redis is away (the caller decides what then).
    this.redis = new Redis(url, { maxRetriesPerRequest: 1, connectTimeout: 2000, commandTimeout: 1000 }) as RedisWithHit;
    this.redis.defineCommand('rateLimitHit', { numberOfKeys: 1, lua: HIT_SCRIPT });
    this.redis.on('error', () => {}); // reported per command by the caller; avoids an unhandled 'error' event
  }

  async hit(key: string, windowMs: number): Promise<Hit> {
    const [count, resetInMs] = await this.redis.rateLimitHit(this.keyPrefix + key, windowMs);
    return { count, resetInMs };
  }

  async peek(key: string): Promise<Hit | null> {
    const [count, resetInMs] = await Promise.all([this.redis.get(this.keyPrefix + key), this.redis.pttl(this.keyPrefix + key)]);
    return count === null || resetInMs < 0 ? null : { count: Number(count), resetInMs };
  }

  async close(): Promise<void> {
    await this.redis.quit().catch(() => this.redis.disconnect());
  }
}
