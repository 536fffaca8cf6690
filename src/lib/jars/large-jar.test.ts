// A 30 MB jar (random stored resources, compressible deflated ones, the demo's classes between
// them): indexing reads little more than the classes, stamping reads each byte about once in
// one pass of READ_CHUNK_BYTES windows (memory stays flat whatever the jar's size; as few round
// trips as sending the file), and the result, streamed to disk, runs.
import { createWriteStream, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fileOnDisk, run, runJava } from '../../../test/helpers/java-jars.js';
import { VALUES, buildLargeJar, expectedOutput } from '../../../test/helpers/stamping-fixture.js';
import { indexJar, stampJar } from './index.js';
import { READ_CHUNK_BYTES } from './random-access.js';

const MiB = 1024 * 1024;

describe('a 30 MB jar', () => {
  let dir: string;
  let path: string;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'large-jar-'));
    path = join(dir, 'large.jar');
    await buildLargeJar(dir, path);
  }, 120_000);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('indexes by reading the classes, stamps by reading each byte about once, in bounded reads', { timeout: 120_000 }, async () => {
    const size = statSync(path).size;
    expect(size).toBeGreaterThan(28 * MiB);

    const indexed = await fileOnDisk(path);
    const { index, mainClass } = await indexJar(indexed);
    await indexed.close();
    expect(mainClass).toBe('demo.Stamped');
    expect(index.stamp).toHaveLength(3);
    expect(indexed.bytesRead).toBeLessThan(3 * READ_CHUNK_BYTES); // the directory and a window over the classes
    expect(indexed.largestRead).toBeLessThanOrEqual(READ_CHUNK_BYTES);

    const source = await fileOnDisk(path);
    const out = join(dir, 'large-stamped.jar');
    await pipeline(stampJar(source, index, VALUES, [{ name: 'META-INF/LICENSING-DOWNLOAD.jws', data: Buffer.from('a.b.c') }]), createWriteStream(out));
    await source.close();
    expect(source.bytesRead).toBeGreaterThanOrEqual(size * 0.99);
    expect(source.bytesRead).toBeLessThanOrEqual(size * 1.01);
    expect(source.largestRead).toBeLessThanOrEqual(READ_CHUNK_BYTES);
    expect(source.reads).toBeLessThanOrEqual(Math.ceil(size / READ_CHUNK_BYTES) + 2); // the tail, then one pass of windows
    expect(Math.abs(statSync(out).size - size)).toBeLessThan(4096);

    expect((await run('unzip', ['-tq', out])).stdout).toMatch(/No errors detected/);
    expect(await runJava(out, 'demo.Stamped')).toEqual(expectedOutput(VALUES));
  });
});
