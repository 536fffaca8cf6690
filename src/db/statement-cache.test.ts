// Kysely's SQLite connection reuses prepared statements per SQL text (database.ts).
import SqliteDatabase from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { STATEMENT_CACHE_SIZE, withStatementCache } from './database.js';

describe('SQLite statement cache', () => {
  let sqlite: SqliteDatabase.Database;
  beforeEach(() => {
    sqlite = new SqliteDatabase(':memory:');
    sqlite.exec('CREATE TABLE t (n INTEGER); INSERT INTO t VALUES (1), (2), (3)');
  });
  afterEach(() => sqlite.close());

  it('prepares a query once and reuses it', () => {
    const db = withStatementCache(sqlite);
    const first = db.prepare('SELECT n FROM t WHERE n > ?');
    expect(db.prepare('SELECT n FROM t WHERE n > ?')).toBe(first);
    expect(first.all([1])).toEqual([{ n: 2 }, { n: 3 }]);
    expect(db.prepare('SELECT n FROM t WHERE n < ?')).not.toBe(first);
  });

  it(`keeps at most ${STATEMENT_CACHE_SIZE} statements, dropping the least recently used`, () => {
    const db = withStatementCache(sqlite);
    const oldest = db.prepare('SELECT 0');
    const recent = db.prepare('SELECT 1');
    for (let i = 2; i < STATEMENT_CACHE_SIZE; i += 1) db.prepare(`SELECT ${i}`);
    expect(db.prepare('SELECT 0')).toBe(oldest); // used again: now the most recent
    db.prepare(`SELECT ${STATEMENT_CACHE_SIZE}`); // one too many: 'SELECT 1' goes
    expect(db.prepare('SELECT 0')).toBe(oldest);
    expect(db.prepare('SELECT 1')).not.toBe(recent);
  });

  it('gives a fresh statement while the cached one is still iterating a result', () => {
    const db = withStatementCache(sqlite);
    const streaming = db.prepare('SELECT n FROM t ORDER BY n');
    const rows = streaming.iterate([]);
    expect(rows.next().value).toEqual({ n: 1 });
    const again = db.prepare('SELECT n FROM t ORDER BY n');
    expect(again).not.toBe(streaming);
    expect(again.all([])).toHaveLength(3);
    expect([...rows]).toEqual([{ n: 2 }, { n: 3 }]);
  });
});
