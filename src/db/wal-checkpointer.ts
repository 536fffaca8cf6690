// WAL checkpoints off the event loop. A checkpoint copies committed pages from the WAL
// back into the database file and fsyncs both; SQLite runs it inside the commit that
// crosses wal_autocheckpoint (1000 pages), so every few dozen validation batches one
// commit stalled the event loop for the fsyncs (p99 latency doubled, throughput -8% in
// `npm run bench`). Here a worker thread checkpoints every CHECKPOINT_INTERVAL_MS, and
// the service's own connection keeps a far higher threshold as a backstop: a checkpoint
// that runs beside commits may not catch up before the next commit, and the WAL only
// starts over once one has, so under sustained load the backstop bounds the WAL at
// BACKSTOP_PAGES (40 MB).
import { once } from 'node:events';
import { resolve } from 'node:path';
import type SqliteDatabase from 'better-sqlite3';
import { siblingModule, startWorker } from '../lib/start-worker.js';
import type { CheckpointWorkerSetup, FromCheckpointWorker } from './wal-checkpoint-worker.js';

const CHECKPOINT_INTERVAL_MS = 50;
const BACKSTOP_PAGES = 10_000;
const SQLITE_DEFAULT_PAGES = 1000;
const WORKER_MODULE = siblingModule(import.meta.url, 'wal-checkpoint-worker');

export interface WalCheckpointer {
  close(): Promise<void>;
}

export interface WalCheckpointerOptions {
  intervalMs?: number;
  /** The worker's module (tests give one that misbehaves). */
  workerModule?: URL;
}

/**
 * Starts checkpointing the file behind `sqlite` (a WAL-mode connection to a file) in a
 * worker thread. If the worker stops, `sqlite` checkpoints as SQLite does by default.
 */
export async function startWalCheckpointer(
  sqlite: SqliteDatabase.Database,
  onError: (error: unknown) => void,
  { intervalMs = CHECKPOINT_INTERVAL_MS, workerModule = WORKER_MODULE }: WalCheckpointerOptions = {},
): Promise<WalCheckpointer> {
  const setup: CheckpointWorkerSetup = { file: resolve(sqlite.name), intervalMs };
  const worker = startWorker(workerModule, { workerData: setup });
  await new Promise<void>((ready, fail) => {
    worker.once('message', () => ready());
    worker.once('error', fail);
    worker.once('exit', (code) => fail(new Error(`WAL checkpoint worker exited with code ${code} before it was ready`)));
  });
  let closing = false;
  worker.on('message', (message: FromCheckpointWorker) => {
    if ('error' in message) onError(new Error(`WAL checkpoint failed: ${message.error}`));
  });
  worker.on('error', onError);
  worker.on('exit', () => {
    if (closing) return;
    onError(new Error('WAL checkpoint worker stopped; the service connection checkpoints again'));
    if (sqlite.open) sqlite.pragma(`wal_autocheckpoint = ${SQLITE_DEFAULT_PAGES}`);
  });
  sqlite.pragma(`wal_autocheckpoint = ${BACKSTOP_PAGES}`);
  return {
    async close() {
      closing = true;
      const exited = once(worker, 'exit');
      worker.postMessage('close');
      await exited;
    },
  };
}
