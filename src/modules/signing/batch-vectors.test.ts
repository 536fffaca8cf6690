// The shared test vectors (clients/test-vectors/batch-receipts.json) are what the service's
// tree code makes, and a verifier written apart from it accepts exactly the good ones.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { batchReceiptVectors, VECTORS_FILE } from '../../../scripts/test-vectors/batch-receipts.js';
import { verifyBatchReceipt, verifyJws } from '../../../test/helpers/jws.js';

interface Vectors {
  jwks: Parameters<typeof verifyJws>[1];
  vectors: { name: string; receipt: string; valid: boolean; claims?: Record<string, unknown> }[];
}

const file = JSON.parse(readFileSync(VECTORS_FILE, 'utf8')) as Vectors;

describe('batch receipt test vectors', () => {
  it('are exactly what the service makes from the fixed keys and salts (npm run generate:test-vectors)', () => {
    expect(JSON.parse(JSON.stringify(batchReceiptVectors()))).toEqual(file);
  });

  it.each(file.vectors)('$name', ({ receipt, valid, claims }) => {
    const read = () => (receipt.includes('~') ? verifyBatchReceipt(receipt, file.jwks).payload : verifyJws(receipt, file.jwks).payload);
    if (valid) expect(read()).toEqual(claims);
    else expect(read).toThrow();
  });
});
