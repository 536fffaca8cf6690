// Serialising work on one key across transactions (and instances) of one database.
import { sql } from 'kysely';
import type { Db, Dialect } from '../database.js';

/**
 * Holds a lock on `key` until the transaction ends. PostgreSQL: a transaction-scoped
 * advisory lock. SQLite needs none: one connection per process runs one transaction at
 * a time, and SQLite itself admits one writer across processes.
 */
export async function lockKey(trx: Db, dialect: Dialect, key: string): Promise<void> {
  if (dialect === 'postgres') await sql`select pg_advisory_xact_lock(hashtextextended(${key}, 0))`.execute(trx);
}
