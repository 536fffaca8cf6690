// Both clients against the shared batch-receipt test vectors (clients/test-vectors/batch-receipts.json):
// each accepts exactly the good ones, in either form, and reads their claims.
// Needs `npm run build:clients` (part of `pretest`).
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
type Client = typeof import('../../clients/typescript/src/index.js');

interface Vectors {
  jwks: import('../../clients/typescript/src/index.js').JwkSet;
  vectors: { name: string; receipt: string; valid: boolean; claims?: Record<string, unknown> }[];
}

const file = JSON.parse(readFileSync('clients/test-vectors/batch-receipts.json', 'utf8')) as Vectors;
const dir = mkdtempSync(join(tmpdir(), 'receipt-vectors-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('batch receipt test vectors: TypeScript client', () => {
  it.each(file.vectors)('$name', async ({ receipt, valid, claims }) => {
    const { PinnedKeys } = (await import(join(process.cwd(), 'clients/typescript/dist/index.js'))) as Client;
    const keys = new PinnedKeys(file.jwks);
    expect(keys.verifyReceipt(receipt)).toEqual(valid ? claims : null);
  });
});

describe('batch receipt test vectors: Java client', () => {
  it('accepts exactly the good vectors and reads their claims', async () => {
    const keys = join(dir, 'jwks.json');
    const receipts = join(dir, 'receipts.txt');
    writeFileSync(keys, JSON.stringify(file.jwks));
    writeFileSync(receipts, file.vectors.map((v) => v.receipt).join('\n'));
    const { stdout } = await run('java', ['-cp', 'clients/java/build/license-client.jar', 'test/clients/java/ReceiptVectorsCheck.java', keys, receipts], { timeout: 60_000 });
    const expected = file.vectors.map((v) => (v.valid ? `VALID ${String(v.claims!.hwid)} ${String(v.claims!.salt ?? '-')}` : 'INVALID'));
    expect(stdout.trim().split('\n').map((line, i) => `${file.vectors[i]!.name}: ${line}`)).toEqual(
      expected.map((line, i) => `${file.vectors[i]!.name}: ${line}`),
    );
  }, 60_000);
});
