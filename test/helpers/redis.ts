// The machine's Redis for tests: a random key prefix per test and removal of its keys.
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { inject } from 'vitest';

const answering: string | null = (() => {
  try {
    return inject('redisUrl');
  } catch {
    return process.env.TEST_REDIS_URL ?? null; // imported outside Vitest
  }
})();
/** The test Redis (TEST_REDIS_URL, default redis://127.0.0.1:6379; see test/global-setup.ts). */
export const TEST_REDIS_URL = answering ?? process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
/** Rate-limit stores to test: Redis only when it answers (test/global-setup.ts names what is skipped). */
export const RATE_LIMIT_STORES: ('memory' | 'redis')[] = answering ? ['memory', 'redis'] : ['memory'];

export const randomRedisPrefix = () => `licensing-test:${randomBytes(6).toString('hex')}:`;

/** Deletes every key under `prefix`. */
export async function deleteRedisKeys(prefix: string): Promise<void> {
  const redis = new Redis(TEST_REDIS_URL);
  try {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 500);
      if (keys.length > 0) await redis.del(...keys);
      cursor = next;
    } while (cursor !== '0');
  } finally {
    await redis.quit();
  }
}

export async function countRedisKeys(prefix: string): Promise<number> {
  const redis = new Redis(TEST_REDIS_URL);
  try {
    return (await redis.keys(`${prefix}*`)).length;
  } finally {
    await redis.quit();
  }
}
