// A long read (a streamed list) on a connection of its own. On SQLite the service shares
// one connection for everything, and a read transaction held on it across many batches
// would make every other query wait; a second, read-only connection in WAL mode gets its
// own snapshot and never blocks the writer (it only keeps checkpoints from passing it
// until it ends). On PostgreSQL a REPEATABLE READ READ ONLY transaction holds one pooled
// connection for as long as it lasts.
import SqliteDatabase from 'better-sqlite3';
import { Kysely, SqliteDialect, sql } from 'kysely';
import { withStatementCache, type Db } from './database.js';
import type { Database } from './schema.js';

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
