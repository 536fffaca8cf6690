// Runs once before every test file: finds out whether PostgreSQL and Redis answer, so
// their suites run by default. What cannot run is named in one loud line; with
// REQUIRE_POSTGRES=1 / REQUIRE_REDIS=1 (set by .ci/run) a missing server fails the run
// instead of being skipped.
import { Redis } from 'ioredis';
import pg from 'pg';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Admin URL of the PostgreSQL the suites create their databases on; null: skip PostgreSQL. */
    postgresUrl: string | null;
    /** Redis for the shared-limit suites; null: skip them. */
    redisUrl: string | null;
  }
}

const POSTGRES_URL = process.env.TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
const REDIS_URL = process.env.TEST_REDIS_URL || 'redis://127.0.0.1:6379';

async function postgresAnswers(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3000 });
  client.on('error', () => {});
  try {
    await client.connect();
    await client.query('select 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => {});
  }
}

async function redisAnswers(url: string): Promise<boolean> {
  const redis = new Redis(url, { lazyConnect: true, connectTimeout: 3000, maxRetriesPerRequest: 0, retryStrategy: () => null });
  redis.on('error', () => {});
  try {
    await redis.connect();
    return (await redis.ping()) === 'PONG';
  } catch {
    return false;
  } finally {
    redis.disconnect();
  }
}

export default async function setup(project: TestProject): Promise<void> {
  const [postgres, redis] = await Promise.all([postgresAnswers(POSTGRES_URL), redisAnswers(REDIS_URL)]);
  const missing: string[] = [];
  if (!postgres) missing.push(`PostgreSQL (${POSTGRES_URL}): every PostgreSQL suite`);
  if (!redis) missing.push(`Redis (${REDIS_URL}): every Redis suite`);
  if (missing.length > 0) {
    console.warn(`\n!!! SKIPPED, server not answering: ${missing.join('; ')} !!!\n`);
  }
  const required = [
    !postgres && process.env.REQUIRE_POSTGRES === '1' ? 'PostgreSQL' : null,
    !redis && process.env.REQUIRE_REDIS === '1' ? 'Redis' : null,
  ].filter(Boolean);
  if (required.length > 0) throw new Error(`${required.join(' and ')} required (REQUIRE_*=1) but not answering`);
  project.provide('postgresUrl', postgres ? POSTGRES_URL : null);
  project.provide('redisUrl', redis ? REDIS_URL : null);
}
