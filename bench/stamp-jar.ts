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

interface Cost {
  wall: number;
  cpu: number;
}

/** Wall time and the process's CPU time (every thread: the file reads run in libuv's pool),
 *  in µs. On a machine others load, CPU time says what the work costs; wall time waits too. */
async function timed(work: () => Promise<unknown>): Promise<Cost> {
  const start = process.hrtime.bigint();
  const cpu = process.cpuUsage();
  await work();
  const used = process.cpuUsage(cpu);
  return { wall: Number(process.hrtime.bigint() - start) / 1000, cpu: used.user + used.system };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1]!;
const perMb = (costs: Cost[], mb: number) => ({ wall: median(costs.map((c) => c.wall)) / mb, cpu: median(costs.map((c) => c.cpu)) / mb });

async function main() {
  const dir = mkdtempSync(join(tmpdir(), 'bench-stamp-'));
  try {
    const path = join(dir, 'large.jar');
    await buildLargeJar(dir, path);
    const mb = statSync(path).size / 1e6;
    const memory = bufferFile(readFileSync(path));
    const { index } = await indexJar(memory);
    console.log(`jar: ${mb.toFixed(1)} MB, ${index.directory.entries} entries, ${index.stamp.length} classes to stamp; ${rounds} rounds, median µs/MB (wall clock, and CPU time of the process)`);

    for (const [label, open] of [
      ['disk', () => fileOnDisk(path)],
      ['buffer', async () => Object.assign(memory, { close: async () => {} })],
    ] as const) {
      const send: Cost[] = [];
      const stamp: Cost[] = [];
      const indexing: Cost[] = [];
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
      const [s, t, i] = [perMb(send, mb), perMb(stamp, mb), perMb(indexing, mb)];
      for (const kind of ['wall', 'cpu'] as const) {
        console.log(
          `${label.padEnd(6)} ${kind.padEnd(4)}  send ${s[kind].toFixed(0).padStart(6)}  stamp ${t[kind].toFixed(0).padStart(6)}  (${(t[kind] / s[kind]).toFixed(2)}x send)  index ${i[kind].toFixed(0).padStart(5)}`,
        );
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
