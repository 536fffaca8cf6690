// The signing worker: signs the trees of batch-signed receipts off the event loop
// (tree-signer.ts). Keys come with the first tree they sign and are kept by kid.
import { parentPort } from 'node:worker_threads';
import type { KeyObject } from 'node:crypto';
import { signTree, type TreeToSign } from './batch-receipts.js';

/** One flush's trees; `key` is sent only the first time its kid signs here. */
export interface ToTreeWorker {
  id: number;
  trees: { kid: string; key?: KeyObject; tree: TreeToSign }[];
}

export type FromTreeWorker = { id: number; receipts: string[][] } | { id: number; error: string };

const keys = new Map<string, KeyObject>();

parentPort!.on('message', ({ id, trees }: ToTreeWorker) => {
  try {
    const receipts = trees.map(({ kid, key, tree }) => {
      if (key) keys.set(kid, key);
      const known = keys.get(kid);
      if (!known) throw new Error(`no key ${kid} in the signing worker`);
      return signTree(tree, known);
    });
    parentPort!.postMessage({ id, receipts } satisfies FromTreeWorker);
  } catch (err) {
    parentPort!.postMessage({ id, error: (err as Error).message } satisfies FromTreeWorker);
  }
});
