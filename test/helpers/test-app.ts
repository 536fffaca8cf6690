// Starts the real app on a real HTTP listener against a fresh database: a temporary
// SQLite file, or a new PostgreSQL database that is dropped afterwards. PostgreSQL is on
// whenever it answers (TEST_DATABASE_URL, default postgres://postgres@127.0.0.1:5432/postgres;
// see test/global-setup.ts). Every suite runs once per dialect: `describe.each(DIALECTS)`.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { inject } from 'vitest';
import { buildApp } from '../../src/app.js';
import { loadConfig, type Config } from '../../src/config.js';
import { request, type RequestOptions, type TestResponse } from './http.js';
import { until } from './until.js';

export type TestDialect = 'sqlite' | 'postgres';
/** Admin URL of the test PostgreSQL, or null when it does not answer (its suites are skipped). */
export const TEST_POSTGRES_URL: string | null = (() => {
  try {
    return inject('postgresUrl');
  } catch {
    return process.env.TEST_DATABASE_URL ?? null; // imported outside Vitest (test/helpers/child-app.ts)
  }
})();
export const DIALECTS: TestDialect[] = TEST_POSTGRES_URL ? ['sqlite', 'postgres'] : ['sqlite'];

export const ADMIN = { username: 'root', password: 'root-password-123' };

export interface TestDatabase {
  url: string;
  drop(): Promise<void>;
}

/** A fresh, empty database of the dialect. */
export async function createTestDatabase(dialect: TestDialect): Promise<TestDatabase> {
  if (dialect === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), 'licensing-test-'));
    return { url: `sqlite:${join(dir, 'test.db')}`, drop: async () => rmSync(dir, { recursive: true, force: true }) };
  }
  const adminUrl = TEST_POSTGRES_URL!;
  const name = `licensing_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const client = new pg.Client({ connectionString: adminUrl });
      await client.connect();
      try {
        // Without FORCE: a pool that is still closing its connections gets time to finish
        // (55006: other sessions are still connected to it).
        const stillInUse = (err: unknown) => (err as { code?: string }).code === '55006';
        await until(`database ${name} dropped`, () => client.query(`DROP DATABASE IF EXISTS ${name}`), () => true, { timeoutMs: 5000, everyMs: 100, retryOn: stillInUse });
      } finally {
        await client.end();
      }
    },
  };
}

export interface TestApp {
  app: FastifyInstance;
  baseUrl: string;
  config: Config;
  database: TestDatabase;
  /** Master Admin token */
  adminToken: string;
  req(method: string, path: string, opts?: RequestOptions): Promise<TestResponse>;
  /** Same as req, authenticated as the Master Admin unless opts carry their own auth. */
  admin(method: string, path: string, opts?: RequestOptions): Promise<TestResponse>;
  close(): Promise<void>;
}

export function testConfig(databaseUrl: string, env: Record<string, string> = {}): Config {
  return loadConfig({
    DATABASE_URL: databaseUrl,
    JWT_SECRET: 'test-jwt-secret-that-is-at-least-32-bytes-long',
    MASTER_ADMIN_USERNAME: ADMIN.username,
    MASTER_ADMIN_PASSWORD: ADMIN.password,
    MARKETPLACE_SECRET: 'test-marketplace-secret',
    LOG_LEVEL: 'silent',
    ...env,
  });
}

/** Builds and starts the app; `env` overrides configuration like environment variables. */
export async function startTestApp(
  dialect: TestDialect,
  env: Record<string, string> = {},
  database?: TestDatabase,
): Promise<TestApp> {
  const db = database ?? (await createTestDatabase(dialect));
  const config = testConfig(db.url, env);
  const app = await buildApp(config, { logger: false });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  const baseUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  const req = (method: string, path: string, opts?: RequestOptions) => request(baseUrl, method, path, opts);
  const login = await req('POST', '/auth/login', { body: ADMIN });
  const adminToken = (login.json as { token: string }).token;
  return {
    app,
    baseUrl,
    config,
    database: db,
    adminToken,
    req,
    admin: (method, path, opts = {}) =>
      req(method, path, opts.token || opts.basic ? opts : { ...opts, token: adminToken }),
    async close() {
      await app.close();
      if (!database) await db.drop();
    },
  };
}
