// The checkpoint worker copies committed pages into the database file while the writing
// connection never checkpoints itself; a closed checkpointer leaves no thread behind.
import { statSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../test/helpers/test-app.js';
import { until } from '../../test/helpers/until.js';
import { createDb } from './database.js';
import { startWalCheckpointer } from './wal-checkpointer.js';


describe('WAL checkpointer', () => {
  let database: TestDatabase;
  afterEach(() => database.drop());

  it('moves committed pages from the WAL into the database file', async () => {
    database = await createTestDatabase('sqlite');
    const { sqlite } = createDb(database.url);
    sqlite!.exec('CREATE TABLE rows (value TEXT NOT NULL)');
    const errors: unknown[] = [];
    const checkpointer = await startWalCheckpointer(sqlite!, (err) => errors.push(err), { intervalMs: 10 });
    // The service connection only checkpoints past the backstop now.
    expect(sqlite!.pragma('wal_autocheckpoint', { simple: true })).toBe(10_000);
    const file = sqlite!.name;
    const before = statSync(file).size;
    const insert = sqlite!.prepare('INSERT INTO rows (value) VALUES (?)');
    sqlite!.transaction(() => {
      for (let i = 0; i < 2000; i += 1) insert.run('x'.repeat(200));
    })();
    await until('the pages checkpointed into the database file', () => statSync(file).size, (size) => size > before + 200 * 2000, { timeoutMs: 5000 });
    await checkpointer.close();
    expect(errors).toEqual([]);
    expect(sqlite!.prepare('SELECT count(*) FROM rows').pluck().get()).toBe(2000);
    sqlite!.close();
  });

  it('refuses to start without a database file, leaving SQLite\'s own checkpoints in place', async () => {
    database = await createTestDatabase('sqlite');
    const { sqlite } = createDb('sqlite::memory:');
    await expect(startWalCheckpointer(sqlite!, () => {}, { intervalMs: 10 })).rejects.toThrow();
    expect(sqlite!.pragma('wal_autocheckpoint', { simple: true })).toBe(1000);
    sqlite!.close();
  });

  it('gives the service connection its own checkpoints back when the worker stops', async () => {
    database = await createTestDatabase('sqlite');
    const { sqlite } = createDb(database.url);
    const errors: unknown[] = [];
    const workerModule = new URL('../../test/helpers/short-lived-checkpoint-worker.ts', import.meta.url);
    await startWalCheckpointer(sqlite!, (err) => errors.push(err), { workerModule });
    expect(sqlite!.pragma('wal_autocheckpoint', { simple: true })).toBe(10_000);
    await until('the worker reported its stop', () => errors.length > 0, undefined, { timeoutMs: 5000 });
    expect(String(errors[0])).toMatch(/worker stopped/);
    expect(sqlite!.pragma('wal_autocheckpoint', { simple: true })).toBe(1000);
    sqlite!.close();
  });
});

