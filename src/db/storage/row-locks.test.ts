// lockRows: PostgreSQL gets the lock clause asked for; SQLite gets none (it has no row
// locks: its IMMEDIATE transactions already hold the one write lock). Compiled only.
import {
  DummyDriver,
  Kysely,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  SqliteAdapter,
  SqliteIntrospector,
  SqliteQueryCompiler,
} from 'kysely';
import { describe, expect, it } from 'vitest';
import { dialectOf } from './dialect.js';
import { lockRows } from './row-locks.js';

const postgres = new Kysely<any>({
  dialect: {
    createAdapter: () => new PostgresAdapter(),
    createDriver: () => new DummyDriver(),
    createIntrospector: (db) => new PostgresIntrospector(db),
    createQueryCompiler: () => new PostgresQueryCompiler(),
  },
});
const sqlite = new Kysely<any>({
  dialect: {
    createAdapter: () => new SqliteAdapter(),
    createDriver: () => new DummyDriver(),
    createIntrospector: (db) => new SqliteIntrospector(db),
    createQueryCompiler: () => new SqliteQueryCompiler(),
  },
});

const read = (db: Kysely<any>) => db.selectFrom('licenses as l').innerJoin('products as p', 'p.id', 'l.product_id').select('l.id');

describe('lockRows', () => {
  it('knows the engine from the adapter', () => {
    expect(dialectOf(postgres)).toBe('postgres');
    expect(dialectOf(sqlite)).toBe('sqlite');
  });

  it('adds the lock on PostgreSQL', () => {
    expect(read(postgres).$call(lockRows(postgres, 'update')).compile().sql).toMatch(/ for update$/);
    expect(read(postgres).$call(lockRows(postgres, 'noKeyUpdate')).compile().sql).toMatch(/ for no key update$/);
    expect(read(postgres).$call(lockRows(postgres, 'keyShare', { of: 'p' })).compile().sql).toMatch(/ for key share of "p"$/);
    expect(read(postgres).$call(lockRows(postgres, 'update', { skipLocked: true })).compile().sql).toMatch(/ for update skip locked$/);
  });

  it('leaves the query as it is on SQLite', () => {
    for (const lock of ['update', 'noKeyUpdate', 'keyShare'] as const) {
      expect(read(sqlite).$call(lockRows(sqlite, lock, { of: 'p', skipLocked: true })).compile().sql).toBe(read(sqlite).compile().sql);
    }
  });
});
