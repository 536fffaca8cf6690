// Where the trees of batch-signed receipts are hashed and signed: on the main thread, or
// in one worker thread (tree-signer.worker.ts). bench/tree-signer.ts measures both; the
// service uses the one docs/decisions.md ("Batch-signed receipts") found faster.
import type { Worker } from 'node:worker_threads';
import { siblingModule, startWorker } from '../../lib/start-worker.js';
import { signTree, type TreeToSign } from './batch-receipts.js';
import type { SigningKey } from './key-material.js';
import type { FromTreeWorker, ToTreeWorker } from './tree-signer.worker.js';

export interface TreeSigner {
  /** Each tree's receipts, in the trees' and payloads' order. */
  sign(trees: readonly { key: SigningKey; tree: TreeToSign }[]): Promise<string[][]>;
  close(): Promise<void>;
}

export const mainThreadTreeSigner = (): TreeSigner => ({
  sign: async (trees) => trees.map(({ key, tree }) => signTree(tree, key.privateKey)),
  close: async () => {},
});

const WORKER_MODULE = siblingModule(import.meta.url, 'tree-signer.worker');

/**
 * One worker, started on the first tree (an instance nobody asks batch receipts of starts
 * none). If it dies, what it was signing fails (those requests answer 500, their attempts
 * stand committed) and the next tree starts a new one.
 */
export function workerTreeSigner(): TreeSigner {
  let worker: Worker | null = null;
  /** Kids whose key the current worker holds. */
  let sent = new Set<string>();
  const waiting = new Map<number, { resolve(receipts: string[][]): void; reject(error: Error): void }>();
  let nextId = 0;

  const failAll = (error: Error) => {
    for (const w of waiting.values()) w.reject(error);
    waiting.clear();
  };
  const started = (): Worker => {
    if (worker) return worker;
    const w = startWorker(WORKER_MODULE);
    w.unref(); // an idle signer never keeps the process alive
    w.on('message', (message: FromTreeWorker) => {
      const entry = waiting.get(message.id);
      waiting.delete(message.id);
      if ('error' in message) entry?.reject(new Error(`signing worker: ${message.error}`));
      else entry?.resolve(message.receipts);
    });
    w.on('error', (err) => failAll(err));
    w.on('exit', (code) => {
      if (worker === w) worker = null;
      failAll(new Error(`signing worker exited with code ${code}`));
    });
    sent = new Set();
    return (worker = w);
  };

  return {
    sign(trees) {
      const w = started();
      const id = nextId++;
      const message: ToTreeWorker = {
        id,
        trees: trees.map(({ key, tree }) => {
          const first = !sent.has(key.kid);
          sent.add(key.kid);
          return first ? { kid: key.kid, key: key.privateKey, tree } : { kid: key.kid, tree };
        }),
      };
      return new Promise<string[][]>((resolve, reject) => {
        waiting.set(id, { resolve, reject });
        w.postMessage(message);
      });
    },
    async close() {
      const w = worker;
      worker = null;
      if (w) await w.terminate();
      failAll(new Error('the signing worker was closed'));
    },
  };
}
