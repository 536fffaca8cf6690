// Batch-signed receipts (DECISIONS.md "Batch-signed receipts"): one tree of answers, one
// Ed25519 signature over its root, and per answer the receipt `hdr..sig~claims~idx~path`.
import { randomFillSync, sign, type KeyObject } from 'node:crypto';
import { buildTree, TREE_LEAVES } from './merkle.js';

export const BATCH_RECEIPT_TYPE = 'validation-receipt+mt';
/** Random bytes per leaf: leaves of low-entropy claims cannot be guessed from a sibling hash. */
export const SALT_BYTES = 16;

/** One tree to sign: the key's protected header (typ validation-receipt+mt), and each answer's payload as JSON text. */
export interface TreeToSign {
  header: string;
  payloads: readonly string[];
  /** Fixed salts (test vectors only); fresh random ones otherwise. */
  salts?: readonly Buffer[];
}

/** The payload's JSON text with `salt` added as its last member (the text is a non-empty object: it has its fields). */
export function saltedClaims(payloadJson: string, salt: Buffer): string {
  if (!payloadJson.startsWith('{') || !payloadJson.endsWith('}') || payloadJson === '{}') throw new TypeError('a receipt payload is a non-empty JSON object');
  return Buffer.from(`${payloadJson.slice(0, -1)},"salt":"${salt.toString('base64url')}"}`).toString('base64url');
}

/** Signs one tree (1 to TREE_LEAVES answers); answers each receipt in the payloads' order. */
export function signTree(tree: TreeToSign, privateKey: KeyObject): string[] {
  const count = tree.payloads.length;
  if (count === 0 || count > TREE_LEAVES) throw new RangeError(`a tree holds 1 to ${TREE_LEAVES} answers, not ${count}`);
  const salts = tree.salts ?? freshSalts(count);
  const claims = tree.payloads.map((json, i) => saltedClaims(json, salts[i]!));
  const { root, paths } = buildTree(claims);
  const signature = sign(null, Buffer.from(`${tree.header}.${root.toString('base64url')}`), privateKey).toString('base64url');
  const prefix = `${tree.header}..${signature}~`;
  return claims.map((c, i) => `${prefix}${c}~${i}~${paths[i]!.toString('base64url')}`);
}

// Salts come from a pool of random bytes refilled a tree's worth at a time (one system call
// per 1,024 salts, not one per tree); each byte is handed out once. They are views of the
// pool: signTree has turned them into claims before the pool can be refilled.
const pool = Buffer.alloc(SALT_BYTES * TREE_LEAVES);
let poolUsed = pool.length;

function freshSalts(count: number): Buffer[] {
  if (pool.length - poolUsed < SALT_BYTES * count) {
    randomFillSync(pool);
    poolUsed = 0;
  }
  const salts = Array.from({ length: count }, (_, i) => pool.subarray(poolUsed + i * SALT_BYTES, poolUsed + (i + 1) * SALT_BYTES));
  poolUsed += SALT_BYTES * count;
  return salts;
}
