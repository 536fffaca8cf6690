// At start, PostgreSQL may not be up yet (a compose stack starts everything at once, a
// database restarts under a running deployment): try it until it answers, with a growing
// pause between attempts, and give up after the configured time. SQLite is a local file:
// nothing to wait for.
import pg from 'pg';
import { isDatabaseUnavailable } from './storage/unavailable.js';

export interface WaitLog {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

export interface WaitOptions {
  /** Give up after this long without an answer (DATABASE_WAIT_SECONDS). */
  maxWaitMs: number;
  log: WaitLog;
  /** The first pause; each next one doubles, up to maxDelayMs. */
  firstDelayMs?: number;
  maxDelayMs?: number;
}

export class DatabaseWaitTimeout extends Error {}

/** The password never reaches a log line. */
export function describeDatabase(databaseUrl: string): string {
  try {
    const url = new URL(databaseUrl);
    return `${url.hostname}:${url.port || 5432}${url.pathname}`;
  } catch {
    return 'PostgreSQL';
  }
}

/** A short reason for the log: the error's code and message, causes of an AggregateError included. */
function reasonOf(err: unknown): string {
  const { code, message, errors } = (err ?? {}) as { code?: unknown; message?: unknown; errors?: unknown };
  if (Array.isArray(errors) && errors.length > 0 && !message) return errors.map(reasonOf).join('; ');
  const text = typeof message === 'string' ? message : '';
  if (typeof code === 'string' && !text.includes(code)) return `${code} ${text}`.trim();
  return text || String(err);
}

async function tryOnce(databaseUrl: string, timeoutMs: number): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl, connectionTimeoutMillis: timeoutMs });
  client.on('error', () => {}); // a connection dropped during the probe is the probe's failure, already thrown
  try {
    await client.connect();
    await client.query('select 1');
  } finally {
    await client.end().catch(() => {});
  }
}

/** PostgreSQL is a server that may come up later; a SQLite file is opened at once. */
export function isWaitedFor(databaseUrl: string): boolean {
  return /^postgres(ql)?:\/\//.test(databaseUrl);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Resolves once the database answers `select 1`. Waits through a refused connection, an
 * unknown host (the database's container not yet created), a timeout and a server still
 * starting up; a wrong password or a missing database is not going to fix itself, so it
 * throws that error at once. Throws DatabaseWaitTimeout after maxWaitMs.
 */
export async function waitForDatabase(databaseUrl: string, options: WaitOptions): Promise<void> {
  if (!isWaitedFor(databaseUrl)) return;
  const firstDelayMs = options.firstDelayMs ?? 500;
  const maxDelayMs = options.maxDelayMs ?? 5000;
  const target = describeDatabase(databaseUrl);
  const started = Date.now();
  let delay = firstDelayMs;
  for (let attempt = 1; ; attempt += 1) {
    const left = options.maxWaitMs - (Date.now() - started);
    try {
      await tryOnce(databaseUrl, Math.max(1000, Math.min(5000, left)));
      if (attempt > 1) options.log.info({ database: target, attempts: attempt, waitedMs: Date.now() - started }, 'database reachable');
      return;
    } catch (err) {
      if (!isDatabaseUnavailable(err)) throw err;
      const waited = Date.now() - started;
      const pause = Math.min(delay, options.maxWaitMs - waited);
      if (pause <= 0) {
        throw new DatabaseWaitTimeout(
          `database ${target} not reachable after ${Math.round(waited / 1000)} s (DATABASE_WAIT_SECONDS=${Math.round(options.maxWaitMs / 1000)}): ${reasonOf(err)}`,
        );
      }
      options.log.warn(
        { database: target, attempt, reason: reasonOf(err), retryInMs: pause, waitedMs: waited, giveUpInMs: options.maxWaitMs - waited },
        'waiting for the database',
      );
      await sleep(pause);
      delay = Math.min(delay * 2, maxDelayMs);
    }
  }
}
