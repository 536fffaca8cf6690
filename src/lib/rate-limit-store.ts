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
  /** Takes back one hit of the key's current window (a reserved place not used); nothing when it has none. */
  release(key: string): void | Promise<void>;
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

  release(key: string, now = Date.now()): void {
    const window = this.windows.get(key);
    if (window && window.resetAt > now && window.count > 0) window.count -= 1;
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

// DECR only a live, positive counter: a window that ended meanwhile is not recreated
// without expiry, and never goes below zero. DECR keeps the key's expiry.
const RELEASE_SCRIPT = `
local count = tonumber(redis.call('GET', KEYS[1]) or '0')
if count > 0 then redis.call('DECR', KEYS[1]) end
return 0
`;

type RedisWithHit = Redis & {
  rateLimitHit(key: string, windowMs: number): Promise<[number, number]>;
  rateLimitRelease(key: string): Promise<number>;
};

/** Where the Redis store reports that Redis went away and came back (one line each). */
export interface RedisHealthLog {
  warn(message: string): void;
  info(message: string): void;
}

const silentLog: RedisHealthLog = { warn: () => {}, info: () => {} };

/**
 * Counters shared through Redis. While Redis is unreachable the counters fall back at
 * once to this instance's memory (limits keep working, per instance): the store follows
 * the connection's state from ioredis events, so no request waits on a Redis that is
 * away; with the offline queue off, a command on a broken connection fails at once. A
 * command that fails or times out on a connection that looked fine also switches to
 * memory and reconnects. Shared counting resumes by itself once Redis is back.
 */
export class RedisRateLimitStore implements RateLimitStore {
  private readonly redis: RedisWithHit;
  private readonly fallback = new MemoryRateLimitStore();
  private state: 'connecting' | 'up' | 'down' = 'connecting';
  private readonly firstAnswer: Promise<void>;

  constructor(
    url: string,
    private readonly keyPrefix: string,
    private readonly log: RedisHealthLog = silentLog,
  ) {
    this.redis = new Redis(url, {
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      connectTimeout: 1000,
      commandTimeout: 500,
      // Keep trying in the background, at most every 2 s.
      retryStrategy: (times) => Math.min(times * 100, 2000),
    }) as RedisWithHit;
    this.redis.defineCommand('rateLimitHit', { numberOfKeys: 1, lua: HIT_SCRIPT });
    this.redis.defineCommand('rateLimitRelease', { numberOfKeys: 1, lua: RELEASE_SCRIPT });
    this.firstAnswer = new Promise((resolve) => {
      this.redis.once('ready', resolve);
      this.redis.once('close', resolve);
    });
    this.redis.on('ready', () => this.setState('up'));
    this.redis.on('close', () => this.setState('down'));
    this.redis.on('error', () => {}); // the state change above is the report; avoids an unhandled 'error' event
  }

  /** Resolves once the first connection attempt succeeded or failed (start-up waits for it). */
  connected(): Promise<void> {
    return this.firstAnswer;
  }

  /** Whether counters are shared through Redis right now (false: this instance's memory). */
  get shared(): boolean {
    return this.state === 'up';
  }

  private setState(next: 'up' | 'down'): void {
    if (next === this.state) return;
    const previous = this.state;
    this.state = next;
    if (next === 'down') {
      this.log.warn(
        previous === 'up'
          ? 'Redis unreachable: rate limits fall back to per-instance memory counters until it returns'
          : 'Redis unreachable at start: rate limits use per-instance memory counters until it answers',
      );
    } else if (previous === 'down') {
      this.log.info('Redis reachable again: rate limits are shared again');
    }
  }

  /** A command failed on a connection that looked up (e.g. timed out): use memory, reconnect. */
  private commandFailed(): void {
    if (this.state !== 'up') return;
    this.setState('down');
    this.redis.disconnect(true);
  }

  hit(key: string, windowMs: number): Hit | Promise<Hit> {
    if (this.state !== 'up') return this.fallback.hit(key, windowMs);
    return this.redis.rateLimitHit(this.keyPrefix + key, windowMs).then(
      ([count, resetInMs]) => ({ count, resetInMs }),
      () => {
        this.commandFailed();
        return this.fallback.hit(key, windowMs);
      },
    );
  }

  peek(key: string): Hit | null | Promise<Hit | null> {
    if (this.state !== 'up') return this.fallback.peek(key);
    return Promise.all([this.redis.get(this.keyPrefix + key), this.redis.pttl(this.keyPrefix + key)]).then(
      ([count, resetInMs]) => (count === null || resetInMs < 0 ? null : { count: Number(count), resetInMs }),
      () => {
        this.commandFailed();
        return this.fallback.peek(key);
      },
    );
  }

  release(key: string): void | Promise<void> {
    if (this.state !== 'up') return this.fallback.release(key);
    return this.redis.rateLimitRelease(this.keyPrefix + key).then(
      () => undefined,
      () => {
        this.commandFailed();
        this.fallback.release(key);
      },
    );
  }

  async close(): Promise<void> {
    this.state = 'down'; // closing is not an outage: no warning
    this.redis.removeAllListeners('close');
    await this.redis.quit().catch(() => this.redis.disconnect());
    await this.fallback.close();
  }
}
