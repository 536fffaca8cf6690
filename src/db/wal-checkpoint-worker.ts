// Worker thread entry for wal-checkpointer.ts: its own connection to the database file,
// copying committed WAL frames back into the file every `intervalMs`. PASSIVE never
// waits for, or blocks, the connections that read and write meanwhile.
import { parentPort, workerData } from 'node:worker_threads';
import SqliteDatabase from 'better-sqlite3';

export interface CheckpointWorkerSetup {
  file: string;
  intervalMs: number;
}

/** From the worker: once `ready`, then an `error` message for each checkpoint that failed. */
export type FromCheckpointWorker = { ready: true } | { error: string };

const port = parentPort!;
const { file, intervalMs } = workerData as CheckpointWorkerSetup;
const sqlite = new SqliteDatabase(file, { fileMustExist: true });

const timer = setInterval(() => {
  try {
    sqlite.pragma('wal_checkpoint(PASSIVE)');
  } catch (err) {
    port.postMessage({ error: err instanceof Error ? err.message : String(err) } satisfies FromCheckpointWorker);
  }
}, intervalMs);

port.on('message', (message: 'close') => {
  if (message !== 'close') return;
  clearInterval(timer);
  sqlite.close();
  port.close(); // nothing left to wait for: the thread ends
});
port.postMessage({ ready: true } satisfies FromCheckpointWorker);
