import { afterEach, describe, expect, it } from 'vitest';
import { countRedisKeys, deleteRedisKeys, randomRedisPrefix, RATE_LIMIT_STORES, TEST_REDIS_URL } from '../../test/helpers/redis.js';
import { until } from '../../test/helpers/until.js';
import { MemoryRateLimitStore, RedisRateLimitStore } from './rate-limit-store.js';

describe('MemoryRateLimitStore', () => {
  it('counts hits per key in a fixed window that starts with the first hit', () => {
    const store = new MemoryRateLimitStore();
    expect(store.hit('a', 1000, 10_000)).toEqual({ count: 1, resetInMs: 1000 });
    expect(store.hit('a', 1000, 10_400)).toEqual({ count: 2, resetInMs: 600 });
    expect(store.hit('b', 1000, 10_400)).toEqual({ count: 1, resetInMs: 1000 });
    expect(store.hit('a', 1000, 10_999)).toEqual({ count: 3, resetInMs: 1 });
    expect(store.hit('a', 1000, 11_000)).toEqual({ count: 1, resetInMs: 1000 });
  });

  it('releases a hit of a live window, never below zero, and nothing of an ended one', () => {
    const store = new MemoryRateLimitStore();
    store.hit('a', 1000, 10_000);
    store.hit('a', 1000, 10_000);
    store.release('a', 10_100);
    expect(store.peek('a', 10_100)).toEqual({ count: 1, resetInMs: 900 });
    store.release('a', 10_200);
    store.release('a', 10_200);
    expect(store.peek('a', 10_200)).toEqual({ count: 0, resetInMs: 800 });
    store.release('b', 10_200);
    expect(store.peek('b', 10_200)).toBeNull();
    expect(store.hit('a', 1000, 10_300)).toEqual({ count: 1, resetInMs: 700 });
  });

  it('peeks at a window without counting, and at nothing once it ended', () => {
    const store = new MemoryRateLimitStore();
    expect(store.peek('a', 10_000)).toBeNull();
    store.hit('a', 1000, 10_000);
    expect(store.peek('a', 10_500)).toEqual({ count: 1, resetInMs: 500 });
    expect(store.peek('a', 10_600)).toEqual({ count: 1, resetInMs: 400 });
    expect(store.peek('a', 11_000)).toBeNull();
  });
});

describe.skipIf(!RATE_LIMIT_STORES.includes('redis'))('RedisRateLimitStore (real Redis)', () => {
  const prefixes: string[] = [];
  afterEach(async () => {
    for (const prefix of prefixes.splice(0)) await deleteRedisKeys(prefix);
  });

  const connected = async (store: RedisRateLimitStore) => {
    await store.connected();
    expect(store.shared).toBe(true);
    return store;
  };

  const newStore = async () => {
    const prefix = randomRedisPrefix();
    prefixes.push(prefix);
    return { prefix, store: await connected(new RedisRateLimitStore(TEST_REDIS_URL, prefix)) };
  };

  it('peeks at a shared window without counting', async () => {
    const { store } = await newStore();
    try {
      expect(await store.peek('k')).toBeNull();
      await store.hit('k', 60_000);
      await store.hit('k', 60_000);
      const window = await store.peek('k');
      expect(window?.count).toBe(2);
      expect(window!.resetInMs).toBeGreaterThan(59_000);
      expect((await store.peek('k'))?.count).toBe(2);
    } finally {
      await store.close();
    }
  });

  it('releases a hit keeping the window expiry, never below zero, and creates no key for a window that ended', async () => {
    const { store } = await newStore();
    try {
      await store.hit('k', 60_000);
      await store.hit('k', 60_000);
      await store.release('k');
      expect((await store.peek('k'))?.count).toBe(1);
      await store.release('k');
      await store.release('k');
      const window = await store.peek('k');
      expect(window?.count).toBe(0);
      expect(window!.resetInMs).toBeGreaterThan(59_000);
      await store.release('gone');
      expect(await store.peek('gone')).toBeNull();
    } finally {
      await store.close();
    }
  });

  it('counts concurrent hits from several clients atomically and sets the window expiry', async () => {
    const a = await newStore();
    const b = await connected(new RedisRateLimitStore(TEST_REDIS_URL, a.prefix)); // a second instance sharing the counters
    try {
      const hits = await Promise.all(Array.from({ length: 100 }, (_, i) => (i % 2 ? a.store : b).hit('ip', 60_000)));
      expect(hits.map((h) => h.count).sort((x, y) => x - y)).toEqual(Array.from({ length: 100 }, (_, i) => i + 1));
      for (const h of hits) expect(h.resetInMs).toBeGreaterThan(55_000);
      expect(await countRedisKeys(a.prefix)).toBe(1);
    } finally {
      await a.store.close();
      await b.close();
    }
  });

  it('starts a new window once the old one has expired', async () => {
    const { store } = await newStore();
    try {
      expect((await store.hit('ip', 150)).count).toBe(1);
      expect((await store.hit('ip', 150)).count).toBe(2);
      // Redis ends the window (its key's expiry, on Redis's own clock): wait for that.
      await until('the window to end in Redis', () => store.peek('ip'), (window) => window === null);
      const fresh = await store.hit('ip', 150);
      expect(fresh.count).toBe(1);
      expect(fresh.resetInMs).toBeGreaterThan(100);
    } finally {
      await store.close();
    }
  });
});
