// Batch-signed receipts on the request path: each answer that asked for one waits here
// until the callback that released it has run its course (GroupCommit, gather 'callback':
// the answers of one group commit are released together), then the answers gathered form
// trees, at most TREE_LEAVES each, one per group commit they were committed in and per
// signing key, and each tree gets one signature, on the event loop (docs/decisions.md: it
// measured faster than a signing worker). Answers only come here once committed, so no
// tree ever holds an answer that was not.
import { GroupCommit, type Pending } from '../../lib/group-commit.js';
import { BATCH_RECEIPT_TYPE, signTree } from './batch-receipts.js';
import type { KeyRing } from './key-ring.js';
import type { SigningKey } from './key-material.js';
import { TREE_LEAVES } from './merkle.js';

/**
 * The answers that committed together share one (the engine's token for one group commit);
 * undefined: an answer that committed nothing (an unknown license).
 */
export type TreeGroup = symbol | undefined;

interface Leaf {
  /** The kids the client pins (Receipt-Key-Ids): the key is chosen at the flush. */
  kids: readonly string[];
  payloadJson: string;
  group: TreeGroup;
}

export interface BatchSigner {
  /** The batch receipt of a committed answer's payload. */
  sign(kids: readonly string[], payload: object, group: TreeGroup): Promise<string>;
  /** Waits for the receipts under way. */
  close(): Promise<void>;
}

export function createBatchSigner(keys: KeyRing): BatchSigner {
  const signBatch = async (batch: Pending<Leaf, string>[]): Promise<void> => {
    // The key current now (for each pinned set asked): one tree, one key.
    const keyFor = new Map<string, Promise<SigningKey>>();
    const chosen = await Promise.all(
      batch.map(({ item }) => {
        const pinned = item.kids.join(',');
        let key = keyFor.get(pinned);
        if (!key) keyFor.set(pinned, (key = keys.forClient(item.kids)));
        return key;
      }),
    );
    const trees = new Map<TreeGroup, Map<string, { key: SigningKey; leaves: Pending<Leaf, string>[] }>>();
    batch.forEach((p, i) => {
      const key = chosen[i]!;
      let byKey = trees.get(p.item.group);
      if (!byKey) trees.set(p.item.group, (byKey = new Map()));
      let tree = byKey.get(key.kid);
      if (!tree) byKey.set(key.kid, (tree = { key, leaves: [] }));
      tree.leaves.push(p);
    });
    for (const byKey of trees.values()) {
      for (const { key, leaves } of byKey.values()) {
        for (let i = 0; i < leaves.length; i += TREE_LEAVES) {
          const tree = leaves.slice(i, i + TREE_LEAVES);
          const receipts = signTree({ header: key.headers[BATCH_RECEIPT_TYPE], payloads: tree.map((p) => p.item.payloadJson) }, key.privateKey);
          keys.signed(key);
          tree.forEach((p, j) => p.resolve(receipts[j]!));
        }
      }
    }
  };
  const pending = new GroupCommit<Leaf, string>(signBatch, {
    maxBatch: 64 * TREE_LEAVES,
    maxInFlight: 2,
    observed: false,
    gather: 'callback', // a group commit's answers are released together: sign them without waiting a turn
  });
  return {
    sign: (kids, payload, group) => pending.submit({ kids, payloadJson: JSON.stringify(payload), group }),
    close: () => pending.drain(),
  };
}
