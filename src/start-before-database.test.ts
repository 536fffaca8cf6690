// The service started before its PostgreSQL (a compose stack starts everything at once):
// it listens at once, /healthz answers 200, /readyz and every other route 503 with
// Retry-After while it retries with backoff, logging each wait; once a real PostgreSQL
// answers it migrates and serves. Without one for DATABASE_WAIT_SECONDS it exits non-zero.
// "Starts later" is a TCP proxy of the test's own in front of the shared server, refusing
// connections until it is opened.
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request } from '../test/helpers/http.js';
import { proxyFor, viaProxy, type TcpProxy } from '../test/helpers/tcp-proxy.js';
import { createTestDatabase, TEST_POSTGRES_URL, type TestDatabase } from '../test/helpers/test-app.js';
import { until, type UntilOptions } from '../test/helpers/until.js';

/** A child process on a shared machine: its waits and its start take seconds. */
const CHILD: UntilOptions = { timeoutMs: 30_000, everyMs: 100 };

interface LogLine {
  level: number;
  msg: string;
  [key: string]: unknown;
}

interface Started {
  child: ChildProcess;
  exited: Promise<number | null>;
  logs: () => LogLine[];
  stderr: () => string;
  baseUrl: string;
}

/** Runs src/server.ts as `npm start` does (JSON logs) and resolves once it listens, before any database. */
async function startWaiting(databaseUrl: string, env: Record<string, string> = {}): Promise<Started> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server.ts'], {
    env: {
      ...process.env,
      DATABASE_URL: databaseUrl,
      PORT: '0',
      HOST: '127.0.0.1',
      LOG_FORMAT: 'json',
      JWT_SECRET: '',
      MASTER_ADMIN_USERNAME: '',
      MASTER_ADMIN_PASSWORD: '',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = once(child, 'exit').then(([code]) => code as number | null);
  let stdout = '';
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const logs = () =>
    stdout
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as LogLine);
  const port = await new Promise<number>((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      const listening = logs().find((line) => line.msg.startsWith('listening; answering 503'));
      if (listening) resolve(listening.port as number);
    });
    void exited.then((code) => reject(new Error(`server exited with ${code}: ${stderr}`)));
  });
  return { child, exited, logs, stderr: () => stderr, baseUrl: `http://127.0.0.1:${port}` };
}

const waits = (started: Started) => started.logs().filter((line) => line.msg === 'waiting for the database');

async function expectStarting(baseUrl: string): Promise<void> {
  const health = await request(baseUrl, 'GET', '/healthz');
  expect(health.status).toBe(200);
  expect(health.json).toEqual({ status: 'ok' });

  const ready = await request(baseUrl, 'GET', '/readyz');
  expect(ready.status).toBe(503);
  expect(ready.headers['retry-after']).toBe('5');
  expect(ready.json.status).toMatch(/waiting for the database/);

  for (const [method, path] of [
    ['GET', '/licenses'],
    ['POST', '/licenses/validate'],
    ['POST', '/auth/login'],
    ['GET', '/portal/'],
  ] as const) {
    const res = await request(baseUrl, method, path, method === 'POST' ? { body: {} } : {});
    expect(res.status, `${method} ${path}`).toBe(503);
    expect(res.headers['retry-after'], `${method} ${path}`).toBe('5');
    expect(res.json).toEqual({ error: 'Service temporarily unavailable' });
  }
}

describe.skipIf(!TEST_POSTGRES_URL)('start before the database (PostgreSQL)', () => {
  let database: TestDatabase;
  let proxy: TcpProxy;
  beforeAll(async () => {
    database = await createTestDatabase('postgres');
    proxy = await proxyFor(database.url);
    await proxy.cut(); // the port refuses connections: no database yet
  });
  afterAll(async () => {
    await proxy?.close();
    await database?.drop();
  });

  it('listens at once, answers 503 with Retry-After while it retries with backoff, then migrates and serves', async () => {
    const started = await startWaiting(viaProxy(database.url, proxy));
    try {
      await expectStarting(started.baseUrl);
      await until('three waits logged', () => waits(started).length >= 3, undefined, CHILD);
      const [first, second, third] = waits(started);
      expect(first!.reason).toMatch(/ECONNREFUSED/);
      expect(first!.level).toBe(40); // warn
      // Backoff: each pause longer than the one before.
      expect(second!.retryInMs as number).toBeGreaterThan(first!.retryInMs as number);
      expect(third!.retryInMs as number).toBeGreaterThan(second!.retryInMs as number);
      expect(JSON.stringify(started.logs())).not.toContain('password');
      await expectStarting(started.baseUrl); // still the same after a few waits

      await proxy.restore(); // PostgreSQL "starts"
      await until('/readyz 200', async () => (await request(started.baseUrl, 'GET', '/readyz')).status === 200, undefined, CHILD);
      await until('the banner', () => /FIRST START/.test(started.stderr()), undefined, CHILD);
      expect(started.logs().some((line) => line.msg === 'database reachable')).toBe(true);

      // Migrated and serving on the same port: the generated admin signs in.
      const password = /password:\s+(\S+)/.exec(started.stderr())![1]!;
      const login = await request(started.baseUrl, 'POST', '/auth/login', { body: { username: 'admin', password } });
      expect(login.status).toBe(200);
      const licenses = await request(started.baseUrl, 'GET', '/licenses', { token: login.json.token });
      expect(licenses.status).toBe(200);

      started.child.kill('SIGTERM');
      expect(await started.exited).toBe(0);
    } finally {
      started.child.kill('SIGKILL');
    }
  }, 90_000);
});

describe('start before the database: giving up, stopping', () => {
  it('an unknown host is waited for like a refused connection, and after DATABASE_WAIT_SECONDS the process exits non-zero', async () => {
    const started = await startWaiting('postgres://licensing:secret-pw@db.invalid:5432/licensing', { DATABASE_WAIT_SECONDS: '5' });
    try {
      await expectStarting(started.baseUrl);
      const code = await started.exited;
      expect(code).not.toBe(0);
      expect(code).not.toBeNull();
      expect(waits(started).length).toBeGreaterThanOrEqual(2);
      expect(waits(started)[0]!.reason).toMatch(/ENOTFOUND|EAI_AGAIN/);
      expect(waits(started)[0]!.database).toBe('db.invalid:5432/licensing');
      const fatal = started.logs().find((line) => line.level === 60);
      expect(fatal?.msg).toMatch(/not reachable after \d+ s \(DATABASE_WAIT_SECONDS=5\)/);
      expect(JSON.stringify(started.logs())).not.toContain('secret-pw');
    } finally {
      started.child.kill('SIGKILL');
    }
  }, 60_000);

  it('SIGTERM while waiting stops the process at once with status 0', async () => {
    const started = await startWaiting('postgres://postgres@127.0.0.1:1/licensing');
    try {
      await until('a wait logged', () => waits(started).length >= 1, undefined, CHILD);
      const sent = Date.now();
      started.child.kill('SIGTERM');
      expect(await started.exited).toBe(0);
      expect(Date.now() - sent).toBeLessThan(5000);
    } finally {
      started.child.kill('SIGKILL');
    }
  }, 60_000);
});
