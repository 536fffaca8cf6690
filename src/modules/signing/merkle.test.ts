// The fixed-depth tree: every leaf's path leads to the root, sizes outside 1..1024 are refused,
// and the empty places hold the empty-subtree hashes.
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { buildTree, EMPTY, leafHash, nodeHash, rootFromPath, TREE_DEPTH, TREE_LEAVES } from './merkle.js';

const claims = (n: number) => Array.from({ length: n }, (_, i) => `claims-${i}`);

describe('Merkle tree of batch receipts', () => {
  it.each([1, 2, 3, 5, 64, 1000, TREE_LEAVES])('%i leaves: every path is 10 x 32 bytes and leads to the root', (n) => {
    const { root, paths } = buildTree(claims(n));
    paths.forEach((path, i) => {
      expect(path).toHaveLength(TREE_DEPTH * 32);
      expect(rootFromPath(`claims-${i}`, i, path)).toEqual(root);
    });
    if (n > 1) expect(rootFromPath('claims-0', 1, paths[1]!)).not.toEqual(root); // another leaf's path
  });

  it('pads with empty-subtree hashes: one leaf is hashed up with EMPTY[h] at every height', () => {
    let expected = leafHash('only');
    for (let h = 0; h < TREE_DEPTH; h += 1) expected = nodeHash(expected, EMPTY[h]!);
    expect(buildTree(['only']).root).toEqual(expected);
    expect(EMPTY[0]).toEqual(createHash('sha256').digest());
    expect(leafHash('x')).toEqual(createHash('sha256').update(Buffer.from([0])).update('x').digest());
  });

  it('refuses an empty tree and more than 1024 leaves, and paths or indexes of the wrong shape', () => {
    expect(() => buildTree([])).toThrow(RangeError);
    expect(() => buildTree(claims(TREE_LEAVES + 1))).toThrow(RangeError);
    const { paths } = buildTree(claims(2));
    expect(rootFromPath('claims-0', 0, paths[0]!.subarray(32))).toBeNull();
    expect(rootFromPath('claims-0', TREE_LEAVES, paths[0]!)).toBeNull();
    expect(rootFromPath('claims-0', -1, paths[0]!)).toBeNull();
  });
});
