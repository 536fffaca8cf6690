// The service's database for the benchmark: a fresh SQLite file, or, with BENCH_PG (or its
// older name BENCH_DATABASE_URL: a PostgreSQL server on which the benchmark may create
// databases), a fresh PostgreSQL database. Either is removed afterwards.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';

export interface BenchDatabase {
  url: string;
  label: string;
  drop(): Promise<void>;
}

async function onServer(serverUrl: string, statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

/** The PostgreSQL server the benchmark may create databases on, if one was given. */
export const benchPostgresServer = (): string | undefined => process.env.BENCH_PG ?? process.env.BENCH_DATABASE_URL;

export async function benchDatabase(): Promise<BenchDatabase> {
  const serverUrl = benchPostgresServer();
  return serverUrl ? postgresDatabase(serverUrl) : sqliteDatabase();
}

export function sqliteDatabase(): BenchDatabase {
  const dir = mkdtempSync(join(tmpdir(), 'licensing-bench-'));
  return { url: `sqlite:${join(dir, 'bench.db')}`, label: 'SQLite', drop: async () => rmSync(dir, { recursive: true, force: true }) };
}

export async function postgresDatabase(serverUrl: string): Promise<BenchDatabase> {
  const name = `licensing_bench_${randomBytes(6).toString('hex')}`;
  await onServer(serverUrl, `CREATE DATABASE ${name}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return { url: url.toString(), label: 'PostgreSQL', drop: () => onServer(serverUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) };
}
