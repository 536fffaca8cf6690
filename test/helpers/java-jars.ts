// Real jars for the stamping tests and bench: Java sources compiled by the JDK's javac,
// packed by its `jar` (or Info-ZIP's `zip` where a test needs stored entries or ZIP64), and
// run by `java`. Files on disk are read through RandomAccessFile, counting what is read.
import { execFile } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { Readable } from 'node:stream';
import { promisify } from 'node:util';
import type { RandomAccessFile } from '../../src/lib/jars/index.js';

const exec = promisify(execFile);
const OPTIONS = { timeout: 120_000, maxBuffer: 64 * 1024 * 1024 };

export async function run(command: string, args: string[], cwd?: string): Promise<{ stdout: string; stderr: string }> {
  return exec(command, args, { ...OPTIONS, cwd });
}

/** Compiles `sources` (path under the source root → text) into `dir`/classes. */
export async function compileJava(dir: string, sources: Record<string, string>): Promise<string> {
  const sourceRoot = join(dir, 'src');
  const classes = join(dir, 'classes');
  const paths = Object.entries(sources).map(([path, text]) => {
    const file = join(sourceRoot, path);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, text);
    return file;
  });
  await run('javac', ['--release', '17', '-encoding', 'UTF-8', '-d', classes, ...paths]);
  return classes;
}

/** Writes `files` (path → bytes) under `root`. */
export function writeTree(root: string, files: Record<string, Buffer | string>): void {
  for (const [path, data] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), data);
  }
}

/** `jar --create` of everything under each root (deflated; `stored` for --no-compress). */
export async function packJar(out: string, roots: string[], options: { stored?: boolean } = {}): Promise<string> {
  await run('jar', ['--create', '--file', out, ...(options.stored ? ['--no-compress'] : []), ...roots.flatMap((r) => ['-C', r, '.'])]);
  return out;
}

/** An entry's bytes as Info-ZIP's unzip extracts them (it matches non-ASCII names only by
 *  wildcard here, so each run of them is asked as `*`). */
export async function unzipEntry(jar: string, name: string): Promise<Buffer> {
  const { stdout } = await exec('unzip', ['-p', jar, name.replace(/[^\x20-\x7e]+/g, '*')], { ...OPTIONS, encoding: 'buffer' });
  return stdout;
}

export async function runJava(jar: string, mainClass: string): Promise<string[]> {
  const { stdout } = await run('java', ['-Dfile.encoding=UTF-8', '-cp', jar, mainClass]);
  return stdout.trim().split('\n');
}

export interface CountingFile extends RandomAccessFile {
  bytesRead: number;
  reads: number;
  largestRead: number;
  close(): Promise<void>;
}

/** A file on disk as a RandomAccessFile that counts its reads. */
export async function fileOnDisk(path: string): Promise<CountingFile> {
  const handle = await open(path, 'r');
  const { size } = await handle.stat();
  const file: CountingFile = {
    size,
    bytesRead: 0,
    reads: 0,
    largestRead: 0,
    read: async (position, length) => {
      const buffer = Buffer.alloc(length);
      const { bytesRead } = await handle.read(buffer, 0, length, position);
      file.bytesRead += bytesRead;
      file.reads += 1;
      file.largestRead = Math.max(file.largestRead, length);
      return buffer.subarray(0, bytesRead);
    },
    close: () => handle.close(),
  };
  return file;
}

export async function collect(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}
