// npx tsx bench/tree-signer.ts: where to hash and sign the trees of batch-signed receipts.
// For trees of several sizes, the main thread's busy time per answer (what the event loop
// pays, measured with its utilisation) and the answers per second, on the main thread and
// in the signing worker (two trees in flight, as the service allows). BENCH_TREE_MS
// (default 1500) per case.
import { generateKeyPairSync } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { signingKeyFromPem } from '../src/modules/signing/key-material.js';
import { mainThreadTreeSigner, workerTreeSigner, type TreeSigner } from '../src/modules/signing/tree-signer.js';

const DURATION_MS = Number(process.env.BENCH_TREE_MS ?? 1500);
const SIZES = [1, 16, 64, 256, 1024];
const key = signingKeyFromPem(generateKeyPairSync('ed25519').privateKey.export({ format: 'pem', type: 'pkcs8' }).toString());
const payload = (i: number) =>
  JSON.stringify({
    licenseId: 'ABCDE-FGHIJ-KLMNO-PQRST-UVWXY', productId: 'product-1234567890', hwid: `machine-${i}`, nonce: 'q0Zk8mX3vT1pR7sYc2Wn5uHa9JbLd4Ee',
    ip: '203.0.113.7', valid: true, timestampEpochMillis: Date.now(), expiresAtEpochMillis: null, graceEndsAtEpochMillis: null, features: {}, slotTimeoutMinutes: null,
  });

async function measure(signer: TreeSigner, size: number) {
  const tree = { header: key.headers['validation-receipt+mt'], payloads: Array.from({ length: size }, (_, i) => payload(i)) };
  await signer.sign([{ key, tree }]); // warm-up (and the worker's start)
  const elu = performance.eventLoopUtilization();
  const started = performance.now();
  let answers = 0;
  const lane = async () => {
    while (performance.now() - started < DURATION_MS) {
      await signer.sign([{ key, tree }]);
      answers += size;
      await new Promise((resolve) => setImmediate(resolve)); // the loop turns, as the service's does: its busy time is measured

    }
  };
  await Promise.all([lane(), lane()]);
  const wall = performance.now() - started;
  const busy = performance.eventLoopUtilization(elu);
  return { perSecond: (answers / wall) * 1000, mainMicrosPerAnswer: (busy.active * 1000) / answers };
}

const signers: [string, () => TreeSigner][] = [
  ['main thread', mainThreadTreeSigner],
  ['worker', workerTreeSigner],
];
console.log(`${'tree size'.padEnd(10)}${'where'.padEnd(13)}${'answers/s'.padStart(11)}${'main-thread µs/answer'.padStart(24)}`);
for (const size of SIZES) {
  for (const [name, make] of signers) {
    const signer = make();
    const { perSecond, mainMicrosPerAnswer } = await measure(signer, size);
    await signer.close();
    console.log(`${String(size).padEnd(10)}${name.padEnd(13)}${Math.round(perSecond).toString().padStart(11)}${mainMicrosPerAnswer.toFixed(2).padStart(24)}`);
  }
}
