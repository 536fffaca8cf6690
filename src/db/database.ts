// createDb: Kysely over better-sqlite3 (file in WAL mode) or over a pg pool, chosen by URL.
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import {
  CompiledQuery,
  Kysely,
  Migrator,
  PostgresDialect,
  SqliteDialect,
  SqliteDriver,
  type DatabaseConnection,
  type Driver,
  type SqliteDialectConfig,
} from 'kysely';
import pg from 'pg';
import { migrations } from './migrations/index.js';
import { PreparingClient } from './prepared-statements.js';
import type { Database } from './schema.js';

export type Dialect = 'sqlite' | 'postgres';
export type Db = Kysely<Database>;

export interface DbHandle {
  db: Db;
  dialect: Dialect;
  /** The connection behind `db` on SQLite (null on PostgreSQL), for statements prepared once. */
  sqlite: SqliteDatabase.Database | null;
  /** The connection pool behind `db` on PostgreSQL (null on SQLite), for its usage figures. */
  pool: pg.Pool | null;
}

// int8 (bigint columns, count(*)) arrives from pg as a string; our values fit in a double.
const pgTypes = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    if (oid === pg.types.builtins.INT8) return (value: string) => Number(value);
    return pg.types.getTypeParser(oid, format);
  },
};

/**
 * SQLite transactions take the write lock at BEGIN (IMMEDIATE). A deferred transaction
 * that reads and then writes fails with SQLITE_BUSY_SNAPSHOT when another connection (a
 * second process, or validation's group commit there) committed in between; an
 * immediate one waits for the lock (busy_timeout) and then sees the latest data.
 */
class ImmediateTransactionsDriver extends SqliteDriver {
  override async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('begin immediate'));
  }
}

class ImmediateTransactionsDialect extends SqliteDialect {
  constructor(private readonly settings: SqliteDialectConfig) {
    super(settings);
  }

  override createDriver(): Driver {
    return new ImmediateTransactionsDriver(this.settings);
  }
}

/** Prepared statements kept per SQL text (least recently used dropped first). */
export const STATEMENT_CACHE_SIZE = 500;

/**
 * The SQLite connection as Kysely sees it, with each query's prepared statement reused:
 * Kysely prepares every query anew, and preparing (parsing and planning the SQL) costs
 * more than running most of ours (the webhook spent a fifth of its time there).
 */
export function withStatementCache(sqlite: SqliteDatabase.Database): Exclude<SqliteDialectConfig['database'], () => unknown> {
  const cache = new Map<string, SqliteDatabase.Statement>();
  return {
    close: () => sqlite.close(),
    prepare(sql: string) {
      const cached = cache.get(sql);
      // A statement still iterating a result (a streamed query) cannot run twice at once.
      if (cached && !cached.busy) {
        cache.delete(sql); // re-inserted below as the most recently used
        cache.set(sql, cached);
        return cached;
      }
      const statement = sqlite.prepare(sql);
      cache.set(sql, statement);
      if (cache.size > STATEMENT_CACHE_SIZE) cache.delete(cache.keys().next().value!);
      return statement;
    },
  };
}

export interface DbOptions {
  /** How long a SQLite statement waits for another connection's write lock before SQLITE_BUSY (default 5000). */
  sqliteBusyTimeoutMs?: number;
  /**
   * PostgreSQL: each statement runs at most this long, then the server cancels it (57014,
   * answered 503). Unset or 0: no limit (the CLI's exports and imports, migrations).
   */
  postgresStatementTimeoutMs?: number;
}

/** How long a request waits for a PostgreSQL connection (new or from the pool) before failing (503). */
export const PG_CONNECT_TIMEOUT_MS = 5000;

/** Connections the pool keeps open while idle. */
export const PG_POOL_MIN = 2;

export function createDb(databaseUrl: string, onConnectionError: (err: Error) => void = () => {}, options: DbOptions = {}): DbHandle {
  if (databaseUrl.startsWith('sqlite:')) {
    const file = databaseUrl.slice('sqlite:'.length);
    if (file !== ':memory:') mkdirSync(dirname(file), { recursive: true });
    const sqlite = new SqliteDatabase(file);
    sqlite.pragma('journal_mode = WAL');
    sqlite.pragma('synchronous = NORMAL');
    sqlite.pragma('foreign_keys = ON');
    sqlite.pragma(`busy_timeout = ${Math.trunc(options.sqliteBusyTimeoutMs ?? 5000)}`);
    const dialect = new ImmediateTransactionsDialect({ database: withStatementCache(sqlite) });
    return { db: new Kysely<Database>({ dialect }), dialect: 'sqlite', sqlite, pool: null };
  }
  const pool = new pg.Pool({
    connectionString: databaseUrl,
    max: 10,
    Client: PreparingClient, // the validation's hot statements are prepared once per connection
    types: pgTypes,
    // While the server is away, nothing waits longer than this for a connection.
    connectionTimeoutMillis: PG_CONNECT_TIMEOUT_MS,
    // ...nor longer than this for a statement: one stalled behind a lock held elsewhere
    // (or a stalled disk) fails, rather than holding its requests, and the validation batch
    // queued behind it, for as long as the stall lasts. A session setting, sent once per connection.
    statement_timeout: options.postgresStatementTimeoutMs || undefined,
    keepAlive: true,
    // Two connections stay open however idle the service is (others close after 10 s idle):
    // a request after a quiet spell needs no name lookup or new connection, which is what a
    // container network's hiccup delays (docs/deploy.md, "Containers": 15 s lookups on podman).
    min: PG_POOL_MIN,
  });
  // A connection dropped by the server (restart, failover) emits 'error' on its client:
  // unheard, that event would end the process. The pool hears it for idle clients; a
  // client checked out (a transaction, the group commit) needs its own listener. The
  // query in flight fails by itself (503) and the broken client is discarded on release.
  pool.on('connect', (client) => client.on('error', onConnectionError));
  pool.on('error', () => {}); // the same event, already reported by the client's listener
  return { db: new Kysely<Database>({ dialect: new PostgresDialect({ pool }) }), dialect: 'postgres', sqlite: null, pool };
}

/** Applies every pending migration; throws with the failing migration's name. */
export async function migrateToLatest(db: Db): Promise<void> {
  const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations } });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new Error(`Migration ${failed?.migrationName ?? ''} failed: ${reason}`);
  }
}
