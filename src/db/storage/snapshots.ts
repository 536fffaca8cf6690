// Reads that must agree with each other, against one state of the database.
// PostgreSQL: a REPEATABLE READ READ ONLY transaction on one pooled connection.
// SQLite: a read transaction on the held connection; WAL gives it one snapshot while
// other processes sharing the file commit meanwhile.
// A long read (a streamed list) on SQLite gets a connection of its own: the service
// shares one connection for everything, and a read transaction held on it across many
// batches would make every other query wait; a second, read-only connection in WAL mode
// gets its own snapshot and never blocks the writer (it only keeps checkpoints from
// passing it until it ends).
import SqliteDatabase from 'better-sqlite3';
import { Kysely, SqliteDialect, sql } from 'kysely';
import { withStatementCache, type Db, type Dialect } from '../database.js';
import type { Database } from '../schema.js';

/** Runs `fn` in one read snapshot of `db` (any Kysely over our databases: the export CLI uses Kysely<any>). */
export function inSnapshot<DB, T>(db: Kysely<DB>, dialect: Dialect, fn: (db: Kysely<DB>) => Promise<T>): Promise<T> {
  if (dialect === 'postgres') return db.transaction().setIsolationLevel('repeatable read').setAccessMode('read only').execute(fn);
  return db.connection().execute(async (connection) => {
    await sql`begin`.execute(connection);
    try {
      return await fn(connection);
    } finally {
      await sql`commit`.execute(connection);
    }
  });
}

/** Runs `fn` in one read snapshot on a new read-only connection to the SQLite file, closed afterwards. */
export async function onOwnSqliteSnapshot<T>(file: string, fn: (db: Db) => Promise<T>): Promise<T> {
  const connection = new SqliteDatabase(file, { readonly: true, fileMustExist: true });
  connection.pragma('busy_timeout = 5000');
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: withStatementCache(connection) }) });
  try {
    await sql`begin`.execute(db);
    try {
      return await fn(db);
    } finally {
      await sql`commit`.execute(db);
    }
  } finally {
    await db.destroy();
  }
}
