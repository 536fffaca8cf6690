// The zips a jar may come as: Info-ZIP's ZIP64 local fields, a streamed zip (data descriptors
// on every entry), more than 65535 entries (ZIP64 end records, written by Java's
// ZipOutputStream), a launcher prefix with adjusted offsets, an archive comment; and what
// is not a readable zip (NotAZipError, at index time and at trace).
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { collect, packJar, run, runJava } from '../../../test/helpers/java-jars.js';
import { VALUES, buildDemo, expectedOutput } from '../../../test/helpers/stamping-fixture.js';
import { NotAZipError, bufferFile, indexJar, readStamps, stampJar } from './index.js';
import { readZipDirectory, type ZipEntry } from './zip-directory.js';
import { centralRecord, endRecords } from './zip-write.js';

const JWS = { name: 'META-INF/LICENSING-DOWNLOAD.jws', data: Buffer.from('header.payload.signature') };

let dir: string;
let roots: { classes: string; resources: string };
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'zip-formats-'));
  roots = await buildDemo(dir);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Stamps the jar at `path` and checks what a JVM and unzip make of the result. */
async function stampsAndRuns(path: string): Promise<Buffer> {
  const original = readFileSync(path);
  const { index } = await indexJar(bufferFile(original));
  expect(index.stamp.map((s) => s.name).sort()).toEqual(['demo/Grüße.class', 'demo/Other.class', 'demo/Stamped.class']);
  const stamped = await collect(stampJar(bufferFile(original), index, VALUES, [JWS]));
  const out = `${path}.stamped.jar`;
  writeFileSync(out, stamped);
  expect(await runJava(out, 'demo.Stamped')).toEqual(expectedOutput(VALUES));
  expect((await run('unzip', ['-tq', out])).stdout).toMatch(/No errors detected/);
  expect((await run('unzip', ['-p', out, JWS.name])).stdout).toBe(JWS.data.toString());
  return stamped;
}

/** Info-ZIP's zip of the demo's classes and resources, with `flags`, written to a pipe or a file. */
async function infoZip(name: string, flags: string[], options: { piped?: boolean } = {}): Promise<string> {
  const out = join(dir, name);
  const add = options.piped ? `zip -q ${flags.join(' ')} -r - . | cat > ${out}` : `zip -q ${flags.join(' ')} -r ${out} .`;
  await run('sh', ['-c', `cd ${roots.classes} && ${add}`]);
  if (!options.piped) await run('sh', ['-c', `cd ${roots.resources} && ${add}`]);
  return out;
}

describe('zip forms', () => {
  it('ZIP64 local fields on every entry (zip -fz), stored and deflated', async () => {
    await stampsAndRuns(await infoZip('zip64-fields.jar', ['-fz']));
    await stampsAndRuns(await infoZip('zip64-stored.jar', ['-fz', '-0']));
  });

  it('a zip streamed to a pipe: data descriptors and ZIP64 fields on every entry', async () => {
    const path = await infoZip('streamed.jar', [], { piped: true });
    expect((await run('zipinfo', ['-v', path])).stdout).toMatch(/extended local header:\s+yes/);
    await stampsAndRuns(path);
  });

  it('more than 65535 entries: ZIP64 end records are read and written', { timeout: 90_000 }, async () => {
    const maker = join(dir, 'ManyEntries.java');
    writeFileSync(
      maker,
      `import java.nio.file.*; import java.util.zip.*;
public class ManyEntries { public static void main(String[] a) throws Exception {
  try (ZipOutputStream out = new ZipOutputStream(new java.io.BufferedOutputStream(Files.newOutputStream(Path.of(a[0])), 1 << 16))) {
    Path root = Path.of(a[1]);
    try (var walk = Files.walk(root)) { for (Path p : (Iterable<Path>) walk.filter(Files::isRegularFile)::iterator) {
      out.putNextEntry(new ZipEntry(root.relativize(p).toString())); out.write(Files.readAllBytes(p)); out.closeEntry(); } }
    for (int i = 0; i < 70000; i++) { out.putNextEntry(new ZipEntry("many/" + i + ".txt")); out.write(("entry " + i).getBytes()); out.closeEntry(); }
  } } }`,
    );
    const path = join(dir, 'many.jar');
    await run('java', [maker, path, roots.classes]);
    const stamped = await stampsAndRuns(path);
    const locator = stamped.subarray(stamped.length - 22 - 20, stamped.length - 22);
    expect(locator.readUInt32LE(0)).toBe(0x07064b50);
    expect((await run('sh', ['-c', `unzip -l ${path}.stamped.jar | tail -1`])).stdout).toMatch(/70005 files/);
  });

  it('a launcher prefix with adjusted offsets and an archive comment are kept', async () => {
    const jar = readFileSync(await packJar(join(dir, 'plain-for-prefix.jar'), [roots.classes, roots.resources]));
    const prefix = Buffer.from('#!/bin/sh\nexec java -jar "$0" "$@"\n');
    const path = join(dir, 'prefixed.jar');
    writeFileSync(path, Buffer.concat([prefix, jar]));
    await run('zip', ['-qA', path]);
    await run('sh', ['-c', `echo 'build 42' | zip -qz ${path}`]);
    const stamped = await stampsAndRuns(path);
    expect(stamped.subarray(0, prefix.length)).toEqual(prefix);
    expect((await run('unzip', ['-z', `${path}.stamped.jar`])).stdout).toContain('build 42');
  });
});

describe('ZIP64 fields where sizes and offsets need them', () => {
  // No jar this service accepts is 4 GiB; the records are checked on a directory alone,
  // read back from a file that holds nothing else (the reader never opens the entries).
  it('a central record of a 4.5 GiB entry and of one past 4 GiB read back as written', async () => {
    const GiB = 1024 ** 3;
    const entry = (name: string, localOffset: number, size: number): ZipEntry => ({
      name, rawName: Buffer.from(name), versionMadeBy: 20, versionNeeded: 20, flags: 0x0800, method: 0, time: 0, date: 33,
      crc32: 7, compressedSize: size, uncompressedSize: size, internalAttributes: 0, externalAttributes: 0, localOffset,
      extra: Buffer.from([0xfe, 0xca, 0, 0]), comment: Buffer.alloc(0), zip64: { uncompressed: false, compressed: false, offset: false }, spanEnd: 0,
    });
    const entries = [entry('huge.bin', 0, 4.5 * GiB), entry('after.txt', 4.5 * GiB + 100, 5)];
    const records = entries.map(centralRecord);
    expect(records.map((r) => r.readUInt16LE(30))).toEqual([4 + 16 + 4, 4 + 8 + 4]); // a ZIP64 field (both sizes; the offset) + the 0xCAFE one
    const directory = Buffer.concat(records);
    const offset = 5 * GiB;
    const tail = Buffer.concat([directory, endRecords(2, directory.length, offset, Buffer.from('note'))]);
    const file = {
      size: offset + tail.length,
      read: async (at: number, length: number) => {
        const bytes = Buffer.alloc(length); // zeros where the entries would be
        tail.copy(bytes, Math.max(0, offset - at), Math.max(0, at - offset), at + length - offset);
        return bytes;
      },
    };
    const read = await readZipDirectory(file);
    expect([read.offset, read.size, read.entries, read.comment.toString()]).toEqual([offset, directory.length, 2, 'note']);
    expect(read.list.map((e) => [e.name, e.localOffset, e.compressedSize, e.uncompressedSize, e.extra])).toEqual(entries.map((e) => [e.name, e.localOffset, e.compressedSize, e.uncompressedSize, e.extra]));
    expect(tail.subarray(-22 - 4 - 20, -22 - 4).readUInt32LE(0)).toBe(0x07064b50); // the ZIP64 end locator
  });
});

describe('not a readable zip', () => {
  let jar: Buffer;
  beforeAll(async () => {
    jar = readFileSync(await packJar(join(dir, 'for-damage.jar'), [roots.classes, roots.resources]));
  });

  const refused = async (bytes: Buffer, message: RegExp) => {
    await expect(indexJar(bufferFile(bytes))).rejects.toThrow(NotAZipError);
    await expect(indexJar(bufferFile(bytes))).rejects.toThrow(message);
  };

  it('garbage, an empty file, a truncated jar', async () => {
    await refused(randomBytes(100_000), /no end-of-central-directory/);
    await refused(Buffer.alloc(0), /no end-of-central-directory/);
    await refused(jar.subarray(0, jar.length >> 1), /no end-of-central-directory/);
    await refused(jar.subarray(0, jar.length - 10), /no end-of-central-directory/);
    await refused(jar.subarray(1000), /not where its end record says/); // its head cut off
    await expect(readStamps(bufferFile(randomBytes(5000)), [JWS.name], () => true)).rejects.toThrow(NotAZipError);
  });

  it('a damaged class entry, a directory pointing elsewhere', async () => {
    const { index } = await indexJar(bufferFile(jar));
    const damaged = Buffer.from(jar);
    const at = index.stamp[0]!.offset + 30 + Buffer.byteLength(index.stamp[0]!.name) + 10; // inside its data
    damaged.writeUInt16LE(damaged.readUInt16LE(at) ^ 0xffff, at);
    await refused(damaged, /Entry demo\/.*(does not inflate|is damaged)/);

    const moved = Buffer.from(jar);
    const end = moved.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
    moved.writeUInt32LE(moved.readUInt32LE(end + 16) + 7, end + 16);
    await refused(moved, /not where its end record says/);
  });
});
