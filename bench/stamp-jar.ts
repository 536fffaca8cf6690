// What stamping a 30 MB jar costs beside sending it: µs per MB of jar for
//   send   the file read through RandomAccessFile in the stamper's chunk size, into a sink
//   stamp  stampJar (three classes re-deflated, the rest copied raw, a new directory), same sink
//   index  indexJar, once per upload
// both from a file on disk (in the page cache after the first round) and from a Buffer.
// The sink hashes (SHA-256), as a download must for its X-Release-Sha256 header. Rounds
// alternate which of send and stamp goes first; the median is printed. Needs javac and Info-ZIP's zip.
// Run: npx tsx bench/stamp-jar.ts [rounds]
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { bufferFile, indexJar, stampJar, type RandomAccessFile } from '../src/lib/jars/index.js';
import { READ_CHUNK_BYTES } from '../src/lib/jars/random-access.js';
import { fileOnDisk } from '../test/helpers/java-jars.js';
import { VALUES, buildLargeJar } from '../test/helpers/stamping-fixture.js';

const rounds = Number(process.argv[2] ?? 15);
const EXTRA = [{ name: 'META-INF/LICENSING-DOWNLOAD.jws', data: Buffer.alloc(600, 'x') }];

function sending(file: RandomAccessFile): Readable {
  return Readable.from(
    (async function* () {
      for (let at = 0; at < file.size; at += READ_CHUNK_BYTES) yield await file.read(at, Math.min(READ_CHUNK_BYTES, file.size - at));
    })(),
    { objectMode: false },
  );
}

const hashSink = () => {
  const hash = createHash('sha256');
  return new Writable({ write: (chunk: Buffer, _encoding, done) => (hash.update(chunk), done()) });
};

async function timed(work: () => Promise<unknown>): Promise<number> {
  const start = process.hrtime.bigint();
  await work();
  return Number(process.hrtime.bigint() - start) / 1000;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1]!;

async function main() {
  const dir = mkdtempSync(join(tmpdir(), 'bench-stamp-'));
  try {
    const path = join(dir, 'large.jar');
    await buildLargeJar(dir, path);
    const mb = statSync(path).size / 1e6;
    const memory = bufferFile(readFileSync(path));
    const { index } = await indexJar(memory);
    console.log(`jar: ${mb.toFixed(1)} MB, ${index.directory.entries} entries, ${index.stamp.length} classes to stamp; ${rounds} rounds, median µs/MB`);

    for (const [label, open] of [
      ['disk', () => fileOnDisk(path)],
      ['buffer', async () => Object.assign(memory, { close: async () => {} })],
    ] as const) {
      const send: number[] = [];
      const stamp: number[] = [];
      const indexing: number[] = [];
      const sendOnce = async () => {
        const file = await open();
        send.push(await timed(() => pipeline(sending(file), hashSink())));
        await file.close();
      };
      const stampOnce = async () => {
        const file = await open();
        stamp.push(await timed(() => pipeline(stampJar(file, index, VALUES, EXTRA), hashSink())));
        await file.close();
      };
      for (let round = 0; round < rounds; round += 1) {
        // Each goes first in every other round: the one measured second pays for the
        // garbage the first left (the collector runs when it likes).
        for (const step of round % 2 === 0 ? [sendOnce, stampOnce] : [stampOnce, sendOnce]) await step();
        const file = await open();
        indexing.push(await timed(() => indexJar(file)));
        await file.close();
      }
      const [s, t, i] = [median(send) / mb, median(stamp) / mb, median(indexing) / mb];
      console.log(`${label.padEnd(6)}  send ${s.toFixed(0).padStart(6)}  stamp ${t.toFixed(0).padStart(6)}  (${(t / s).toFixed(2)}x send)  index ${i.toFixed(0).padStart(5)}`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
