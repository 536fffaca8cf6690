// Opens the database (migrations applied) and decorates the app with it; closed last, on close.
import fp from 'fastify-plugin';
import type { Db } from '../database.js';
import { openStorage, type Storage } from './storage.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** The database and every difference between SQLite and PostgreSQL (src/db/storage/). */
    storage: Storage;
    db: Db;
    /**
     * Runs reads that must agree with each other (a record and its child rows) against
     * one state of the database, while validations keep writing.
     */
    snapshot<T>(fn: (db: Db) => Promise<T>): Promise<T>;
    /**
     * Like snapshot, for reads that last (a streamed list): on SQLite on a read-only
     * connection of its own, so the shared connection stays free meanwhile.
     */
    longSnapshot<T>(fn: (db: Db) => Promise<T>): Promise<T>;
  }
}

export const storagePlugin = fp(
  async (app) => {
    const { config } = app;
    const storage = await openStorage(config.databaseUrl, {
      sqliteBusyTimeoutMs: config.sqliteBusyTimeoutMs,
      postgresStatementTimeoutMs: config.postgresStatementTimeoutMs,
      onConnectionError: (err) => app.log.warn({ error: err.message }, 'database connection lost; the pool will open a new one'),
      onCheckpointError: (err, started) =>
        started
          ? app.log.error({ err }, 'WAL checkpoint worker')
          : app.log.warn({ err }, 'WAL checkpoint worker did not start; commits checkpoint as SQLite does by default'),
    });
    app.addHook('onClose', () => storage.close());
    app.decorate('storage', storage);
    app.decorate('db', storage.db);
    app.decorate('snapshot', storage.snapshot);
    app.decorate('longSnapshot', storage.longSnapshot);
  },
  { name: 'storage', decorators: { fastify: ['config'] } },
);
