// The shared test vectors of batch-signed receipts (clients/test-vectors/batch-receipts.json),
// made by the service's own tree code from fixed keys and fixed salts, so the file is the
// same on every run: `npm run generate:test-vectors` writes it, and
// src/modules/signing/batch-vectors.test.ts checks that the service still makes exactly it.
// Both clients' tests verify every vector (test/clients/batch-vectors.test.ts).
import { createHash, createPrivateKey, createPublicKey, sign, type KeyObject } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { BATCH_RECEIPT_TYPE, SALT_BYTES, signTree } from '../../src/modules/signing/batch-receipts.js';
import { thumbprint } from '../../src/modules/signing/key-material.js';
import { TREE_DEPTH } from '../../src/modules/signing/merkle.js';

export const VECTORS_FILE = 'clients/test-vectors/batch-receipts.json';

/** An Ed25519 key from a fixed 32-byte seed (PKCS#8 DER: a fixed prefix, then the seed). */
function fixedKey(label: string): { privateKey: KeyObject; x: string; kid: string } {
  const seed = createHash('sha256').update(label).digest();
  const privateKey = createPrivateKey({ key: Buffer.concat([Buffer.from('302e020100300506032b657004220420', 'hex'), seed]), format: 'der', type: 'pkcs8' });
  const x = createPublicKey(privateKey).export({ format: 'jwk' }).x!;
  return { privateKey, x, kid: thumbprint(x) };
}

const b64 = (value: unknown) => Buffer.from(typeof value === 'string' ? value : JSON.stringify(value)).toString('base64url');

export function batchReceiptVectors() {
  const pinned = fixedKey('batch-receipts test vectors: the pinned key');
  const other = fixedKey('batch-receipts test vectors: a key nobody pins');
  const header = (typ: string) => b64({ alg: 'EdDSA', kid: pinned.kid, typ });
  const payloads = Array.from({ length: 5 }, (_, i) => ({
    licenseId: 'VECTR-TESTS-BATCH-RCPTS-00001',
    productId: 'product-vectors',
    hwid: `machine-${i}`,
    nonce: `vector-nonce-${String(i).padStart(4, '0')}-abcdef`,
    ip: `203.0.113.${10 + i}`,
    valid: i !== 3,
    timestampEpochMillis: 1767225600000 + i,
    expiresAtEpochMillis: null,
    graceEndsAtEpochMillis: null,
    features: i === 0 ? { pro: true, seats: 5 } : {},
    slotTimeoutMinutes: null,
  }));
  const salts = payloads.map((_, i) => createHash('sha256').update(`salt ${i}`).digest().subarray(0, SALT_BYTES));
  const tree = { header: header(BATCH_RECEIPT_TYPE), payloads: payloads.map((p) => JSON.stringify(p)), salts };
  const receipts = signTree(tree, pinned.privateKey);
  const otherKey = signTree(tree, other.privateKey); // the header still names the pinned kid
  const wrongTyp = signTree({ ...tree, header: header('validation-receipt') }, pinned.privateKey);

  const parts = (receipt: string) => {
    const [jws, claims, idx, path] = receipt.split('~') as [string, string, string, string];
    return { jws, claims, idx, path: Buffer.from(path, 'base64url') };
  };
  const join = (p: { jws: string; claims: string; idx: string | number; path: Buffer }) => `${p.jws}~${p.claims}~${p.idx}~${p.path.toString('base64url')}`;
  const last = parts(receipts[4]!);
  const first = parts(receipts[0]!);
  const second = parts(receipts[1]!);
  const swapped = Buffer.from(last.path);
  last.path.copy(swapped, 0, 32, 64);
  last.path.copy(swapped, 32, 0, 32);
  const flippedClaims = Buffer.from(last.claims, 'base64url');
  flippedClaims.writeUInt8(flippedClaims[20]! ^ 0x01, 20);
  const [h, , s] = last.jws.split('.') as [string, string, string];
  const flippedSig = Buffer.from(s, 'base64url');
  flippedSig.writeUInt8(flippedSig[0]! ^ 0x01, 0);
  // Today's form (a compact JWS over the payload), which clients keep verifying.
  const compactInput = `${header('validation-receipt')}.${b64(payloads[0])}`;
  const compact = `${compactInput}.${sign(null, Buffer.from(compactInput), pinned.privateKey).toString('base64url')}`;
  const claimsOf = (i: number) => ({ ...payloads[i], salt: salts[i]!.toString('base64url') });

  return {
    description:
      'Batch-signed validation receipts (hdr..sig~claims~idx~path; docs/client-integration.md) made by ' +
      'scripts/test-vectors/batch-receipts.ts from fixed keys and salts: one tree of 5 answers (depth ' + TREE_DEPTH + ', the other ' +
      '1019 places empty). A client pinning `jwks` must accept exactly the vectors with "valid": true and read `claims` from them.',
    treeDepth: TREE_DEPTH,
    jwks: { keys: [{ kty: 'OKP', crv: 'Ed25519', x: pinned.x, kid: pinned.kid, alg: 'EdDSA', use: 'sig' }] },
    vectors: [
      { name: 'good: first leaf', receipt: receipts[0], valid: true, claims: claimsOf(0) },
      { name: 'good: last leaf, beside empty places', receipt: receipts[4], valid: true, claims: claimsOf(4) },
      { name: 'good: a leaf that says false', receipt: receipts[3], valid: true, claims: claimsOf(3) },
      { name: "good: today's compact form", receipt: compact, valid: true, claims: payloads[0] },
      { name: 'wrong index bit (4 -> 6)', receipt: join({ ...last, idx: 6 }), valid: false },
      { name: 'index bit beyond the depth (4 + 1024)', receipt: join({ ...last, idx: 4 + 1024 }), valid: false },
      { name: 'index not in canonical decimal (04)', receipt: join({ ...last, idx: '04' }), valid: false },
      { name: 'path one hash short (9 x 32 bytes)', receipt: join({ ...last, path: last.path.subarray(0, 288) }), valid: false },
      { name: 'path one hash long (11 x 32 bytes)', receipt: join({ ...last, path: Buffer.concat([last.path, last.path.subarray(0, 32)]) }), valid: false },
      { name: 'swapped siblings (levels 0 and 1)', receipt: join({ ...last, path: swapped }), valid: false },
      { name: "another answer's path and index", receipt: join({ ...first, idx: second.idx, path: second.path }), valid: false },
      { name: 'claims changed (one bit)', receipt: join({ ...last, claims: flippedClaims.toString('base64url') }), valid: false },
      { name: 'signature changed (one bit)', receipt: join({ ...last, jws: `${h}..${flippedSig.toString('base64url')}` }), valid: false },
      { name: 'signed by another key under the pinned kid', receipt: otherKey[4], valid: false },
      { name: 'typ validation-receipt over a root', receipt: wrongTyp[4], valid: false },
      { name: 'root given as an attached payload', receipt: join({ ...last, jws: `${h}.${b64('x')}.${s}` }), valid: false },
      { name: 'a part missing', receipt: `${last.jws}~${last.claims}~4`, valid: false },
    ],
  };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  writeFileSync(VECTORS_FILE, `${JSON.stringify(batchReceiptVectors(), null, 2)}\n`);
  console.log(`wrote ${VECTORS_FILE}`);
}
