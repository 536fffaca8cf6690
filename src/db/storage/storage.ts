// The one object through which the app reaches its database, and the one place that
// knows SQLite from PostgreSQL at run time: how transactions, snapshots and locks are
// taken, which errors mean "try again" or "unavailable", and which engine-specific
// implementation a module gets (validation prepares statements on SQLite's own handle).
import type SqliteDatabase from 'better-sqlite3';
import { sql } from 'kysely';
import type pg from 'pg';
import { createDb, migrateToLatest, type Db, type Dialect, type DbOptions } from '../database.js';
import { startWalCheckpointer } from '../wal-checkpointer.js';
import { isBusy } from './errors.js';
import { lockKey } from './locks.js';
import { inSnapshot, onOwnSqliteSnapshot } from './snapshots.js';
import { isDatabaseUnavailable } from './unavailable.js';

/** One implementation per engine; SQLite's receives the raw better-sqlite3 handle behind `db`. */
export interface PerEngine<T> {
  sqlite: (handle: SqliteDatabase.Database) => T;
  postgres: () => T;
}

export interface Storage {
  readonly db: Db;
  readonly dialect: Dialect;
  /** The pg pool behind `db` (null on SQLite), for its usage figures (/metrics). */
  readonly pool: pg.Pool | null;
  /** Runs `fn` in one database transaction: all of its writes commit or none do (SQLite: BEGIN IMMEDIATE). */
  transaction<T>(fn: (trx: Db) => Promise<T>): Promise<T>;
  /** Reads that must agree with each other (a record and its child rows), against one state of the database. */
  snapshot<T>(fn: (db: Db) => Promise<T>): Promise<T>;
  /** Like snapshot, for reads that last (a streamed list): on SQLite on a read-only connection of its own. */
  longSnapshot<T>(fn: (db: Db) => Promise<T>): Promise<T>;
  /** Holds a lock on `key` until `trx` ends (PostgreSQL advisory lock; SQLite's writer lock suffices). */
  lock(trx: Db, key: string): Promise<void>;
  /** The error may pass when the work is tried again (SQLite busy). */
  isRetryable(err: unknown): boolean;
  /** The database itself is away, locked, full or read-only: answer 503, not 500. */
  isUnavailable(err: unknown): boolean;
  /** Resolves when the database answers a query; rejects with the reason otherwise. */
  ping(): Promise<void>;
  /** The implementation for this engine. */
  perEngine<T>(choices: PerEngine<T>): T;
  /** Stops background work and closes the connections. */
  close(): Promise<void>;
}

export interface OpenStorageOptions extends DbOptions {
  /** A pooled PostgreSQL connection dropped by the server (the pool opens a new one). */
  onConnectionError?: (err: Error) => void;
  /** The SQLite WAL checkpoint worker failed (or did not start: SQLite then checkpoints as by default). */
  onCheckpointError?: (err: unknown, started: boolean) => void;
}

/**
 * Migrations may legitimately run long (a table rebuilt on upgrade): on PostgreSQL with a
 * statement timeout they run on a connection of their own without it.
 */
async function migrateWithoutStatementTimeout(databaseUrl: string, db: Db, dialect: Dialect, options: OpenStorageOptions): Promise<void> {
  if (dialect !== 'postgres' || !options.postgresStatementTimeoutMs) return migrateToLatest(db);
  const migrating = createDb(databaseUrl, options.onConnectionError);
  try {
    await migrateToLatest(migrating.db);
  } finally {
    await migrating.db.destroy();
  }
}

/** Opens the database at `databaseUrl`, applies pending migrations and starts SQLite's checkpoint worker. */
export async function openStorage(databaseUrl: string, options: OpenStorageOptions = {}): Promise<Storage> {
  const { db, dialect, sqlite, pool } = createDb(databaseUrl, options.onConnectionError, options);
  const closing: (() => Promise<void> | void)[] = [];
  try {
    await migrateWithoutStatementTimeout(databaseUrl, db, dialect, options);
    if (sqlite && !sqlite.memory) {
      try {
        const checkpointer = await startWalCheckpointer(sqlite, (err) => options.onCheckpointError?.(err, true));
        closing.push(() => checkpointer.close());
      } catch (err) {
        options.onCheckpointError?.(err, false);
      }
    }
  } catch (err) {
    await db.destroy();
    throw err;
  }

  const snapshot = <T>(fn: (db: Db) => Promise<T>) => inSnapshot(db, dialect, fn);
  return {
    db,
    dialect,
    pool,
    transaction: (fn) => db.transaction().execute(fn),
    snapshot,
    longSnapshot: (fn) => (sqlite && !sqlite.memory ? onOwnSqliteSnapshot(sqlite.name, fn) : snapshot(fn)),
    lock: (trx, key) => lockKey(trx, dialect, key),
    isRetryable: isBusy,
    isUnavailable: isDatabaseUnavailable,
    async ping() {
      await sql`select 1`.execute(db);
    },
    perEngine: (choices) => (sqlite ? choices.sqlite(sqlite) : choices.postgres()),
    async close() {
      for (const stop of closing) await stop();
      await db.destroy();
    },
  };
}
