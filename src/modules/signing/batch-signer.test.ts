// Which answers share a tree: those of one group commit and one key, at most 1024 a tree.
import { generateKeyPairSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createBatchSigner } from './batch-signer.js';
import type { KeyRing } from './key-ring.js';
import { signingKeyFromPem, type SigningKey } from './key-material.js';

const newKey = (): SigningKey => signingKeyFromPem(generateKeyPairSync('ed25519').privateKey.export({ format: 'pem', type: 'pkcs8' }).toString());

/** A key ring with a current key and a retired one a client may pin. */
function ring(current: SigningKey, retired: SigningKey) {
  const signed: string[] = [];
  const keys = {
    forClient: async (kids: readonly string[]) => (kids.includes(retired.kid) && !kids.includes(current.kid) ? retired : current),
    signed: (key: SigningKey) => void signed.push(key.kid),
  } as unknown as KeyRing;
  return { keys, signed };
}

const signatureOf = (receipt: string) => receipt.split('~')[0]!;
const payload = (i: number) => ({ licenseId: 'L', hwid: `h${i}`, valid: true });

describe('batch signer', () => {
  it('one tree per group commit and key; 1500 answers of one group make two trees', async () => {
    const [current, retired] = [newKey(), newKey()];
    const { keys, signed } = ring(current, retired);
    const signer = createBatchSigner(keys);
    try {
      const [g1, g2] = [Symbol('g1'), Symbol('g2')];
      const receipts = await Promise.all([
        ...Array.from({ length: 1500 }, (_, i) => signer.sign([], payload(i), g1)),
        ...Array.from({ length: 3 }, (_, i) => signer.sign([], payload(i), g2)),
        ...Array.from({ length: 2 }, (_, i) => signer.sign([retired.kid], payload(i), g2)),
        ...Array.from({ length: 2 }, (_, i) => signer.sign([], payload(i), undefined)),
      ]);
      const trees = new Set(receipts.map(signatureOf));
      expect(trees.size).toBe(2 + 1 + 1 + 1);
      expect(new Set(receipts.slice(0, 1024).map(signatureOf)).size).toBe(1);
      expect(receipts.slice(1024, 1500).map((r) => r.split('~')[2])).toEqual(Array.from({ length: 476 }, (_, i) => String(i)));
      expect(signed.sort()).toEqual([...Array(4).fill(current.kid), retired.kid].sort());
    } finally {
      await signer.close();
    }
  });
});
