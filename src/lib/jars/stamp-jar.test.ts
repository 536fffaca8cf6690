// Stamping real jars (javac + jar): the stamped classes run under `java` and print the
// stamped values, the jar passes `unzip -t`, only the stamped entries' bytes differ, the
// download entry is added (or replaces one already there), signed jars still load.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { collect, packJar, run, runJava, unzipEntry, writeTree } from '../../../test/helpers/java-jars.js';
import { VALUES, buildDemo, expectedOutput } from '../../../test/helpers/stamping-fixture.js';
import { PLACEHOLDERS, bufferFile, indexJar, stampJar, type Placeholder } from './index.js';
import { encodeModifiedUtf8 } from './class-constants.js';
import { readZipDirectory } from './zip-directory.js';

const JWS_NAME = 'META-INF/LICENSING-DOWNLOAD.jws';
const JWS = Buffer.from('eyJhbGciOiJFZERTQSJ9.eyJkb3dubG9hZElkIjoiMSJ9.c2lnbmF0dXJl');

let dir: string;
let roots: { classes: string; resources: string };
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'stamp-jar-'));
  roots = await buildDemo(dir);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function stampFile(jar: Buffer, values = VALUES, extras = [{ name: JWS_NAME, data: JWS }]): Promise<Buffer> {
  const { index } = await indexJar(bufferFile(jar));
  return collect(stampJar(bufferFile(jar), index, values, extras));
}

function save(name: string, bytes: Buffer): string {
  const path = join(dir, name);
  writeFileSync(path, bytes);
  return path;
}

/** The class with each stamped value's Utf8 entry put back to its placeholder (u2 length + bytes). */
function unstamped(content: Buffer, values: Record<Placeholder, string>): Buffer {
  let bytes = content;
  for (const p of PLACEHOLDERS) {
    const value = encodeModifiedUtf8(values[p]);
    const from = Buffer.concat([Buffer.from([value.length >> 8, value.length & 0xff]), value]);
    const to = Buffer.concat([Buffer.from([0, p.length]), Buffer.from(p)]);
    for (let at = bytes.indexOf(from); at >= 0; at = bytes.indexOf(from, at + to.length)) {
      bytes = Buffer.concat([bytes.subarray(0, at), to, bytes.subarray(at + from.length)]);
    }
  }
  return bytes;
}

describe('stampJar on jars made by the JDK', () => {
  it('indexes the classes holding placeholders and the main class of plugin.yml', async () => {
    const jar = readFileSync(await packJar(join(dir, 'index.jar'), [roots.classes, roots.resources]));
    const { mainClass, index } = await indexJar(bufferFile(jar));
    expect(mainClass).toBe('demo.Stamped');
    const byName = Object.fromEntries(index.stamp.map((s) => [s.name, s.placeholders]));
    expect(byName).toEqual({
      'demo/Stamped.class': [...PLACEHOLDERS],
      'demo/Other.class': ['%%__LICENSING_KEY__%%'],
      'demo/Grüße.class': ['%%__LICENSING_DOWNLOAD__%%'],
    });
    expect(JSON.parse(JSON.stringify(index))).toEqual(index);
  });

  it('takes main from plugin.yml, else paper-plugin.yml, else bungee.yml; none: null', async () => {
    const mainOf = async (name: string, files: Record<string, string>) => {
      const root = join(dir, `descriptors-${name}`);
      writeTree(root, { 'readme.txt': 'x', ...files });
      return (await indexJar(bufferFile(readFileSync(await packJar(join(dir, `${name}.jar`), [root]))))).mainClass;
    };
    expect(await mainOf('paper', { 'plugin.yml': 'name: NoMain\n', 'paper-plugin.yml': 'main: dev.paper.Main\n', 'bungee.yml': 'main: dev.bungee.Main\n' })).toBe('dev.paper.Main');
    expect(await mainOf('bungee', { 'bungee.yml': 'main: "dev.bungee.Main"\n' })).toBe('dev.bungee.Main');
    expect(await mainOf('first', { 'plugin.yml': 'main: dev.spigot.Main\n', 'paper-plugin.yml': 'main: dev.paper.Main\n' })).toBe('dev.spigot.Main');
    expect(await mainOf('nested', { 'sub/plugin.yml': 'main: dev.not.Root\n' })).toBeNull();
  });

  for (const stored of [false, true]) {
    it(`${stored ? 'stored' : 'deflated (with data descriptors)'} entries: the stamped classes run and print the stamped values`, async () => {
      const original = readFileSync(await packJar(join(dir, `run-${stored}.jar`), [roots.classes, roots.resources], { stored }));
      expect(await runJava(save(`run-${stored}-original.jar`, original), 'demo.Stamped')).toEqual(expectedOutput(Object.fromEntries(PLACEHOLDERS.map((p) => [p, p])) as Record<Placeholder, string>));

      const stampedPath = save(`run-${stored}-stamped.jar`, await stampFile(original));
      expect(await runJava(stampedPath, 'demo.Stamped')).toEqual(expectedOutput(VALUES));
      expect((await run('unzip', ['-t', stampedPath])).stdout).toContain('No errors detected');
      const listed = (await run('jar', ['tf', stampedPath])).stdout.trim().split('\n');
      expect(listed).toContain(JWS_NAME);
      expect(listed).toContain('assets/ünïcødé-名前.txt');
      expect((await run('unzip', ['-p', stampedPath, JWS_NAME])).stdout).toBe(JWS.toString());
      expect((await run('unzip', ['-p', stampedPath, 'config.yml'])).stdout).toBe('setting: %%__LICENSING_KEY__%%\n');
    });
  }

  it('changes only the stamped entries: every other entry is copied byte for byte', async () => {
    const original = readFileSync(await packJar(join(dir, 'bytes.jar'), [roots.classes, roots.resources]));
    const stamped = await stampFile(original);
    const before = await readZipDirectory(bufferFile(original));
    const after = await readZipDirectory(bufferFile(stamped));
    const afterByName = new Map(after.list.map((e) => [e.name, e]));
    const { index } = await indexJar(bufferFile(original));
    const stampedNames = new Set(index.stamp.map((s) => s.name));

    expect(after.list.map((e) => e.name)).toEqual([...before.list.map((e) => e.name), JWS_NAME]);
    const firstStamped = Math.min(...index.stamp.map((s) => s.offset));
    expect(stamped.subarray(0, firstStamped).equals(original.subarray(0, firstStamped))).toBe(true);
    for (const entry of before.list) {
      const copy = afterByName.get(entry.name)!;
      const was = original.subarray(entry.localOffset, entry.spanEnd);
      const is = stamped.subarray(copy.localOffset, copy.spanEnd);
      if (!stampedNames.has(entry.name)) {
        expect(is.equals(was), entry.name).toBe(true);
        expect([copy.crc32, copy.compressedSize, copy.uncompressedSize, copy.time, copy.date]).toEqual([entry.crc32, entry.compressedSize, entry.uncompressedSize, entry.time, entry.date]);
        continue;
      }
      const stampedClass = await unzipEntry(save('bytes-stamped.jar', stamped), entry.name);
      const originalClass = await unzipEntry(save('bytes-original.jar', original), entry.name);
      expect(stampedClass.equals(originalClass)).toBe(false);
      expect(unstamped(stampedClass, VALUES).equals(originalClass), entry.name).toBe(true);
    }
  });

  it('replaces a download entry the jar already has, and a jar without placeholders stays a valid jar', async () => {
    const root = join(dir, 'plain-root');
    writeTree(root, { [JWS_NAME]: 'an old download entry', 'plugin.yml': 'main: demo.Plain\n', 'readme.txt': 'hello' });
    const original = readFileSync(await packJar(join(dir, 'plain.jar'), [root]));
    const { mainClass, index } = await indexJar(bufferFile(original));
    expect([mainClass, index.stamp]).toEqual(['demo.Plain', []]);

    const path = save('plain-stamped.jar', await collect(stampJar(bufferFile(original), index, VALUES, [{ name: JWS_NAME, data: JWS }])));
    expect((await run('unzip', ['-t', path])).stdout).toContain('No errors detected');
    const listed = (await run('jar', ['tf', path])).stdout.trim().split('\n');
    expect(listed.filter((n) => n === JWS_NAME)).toHaveLength(1);
    expect((await run('unzip', ['-p', path, JWS_NAME])).stdout).toBe(JWS.toString());
    expect((await run('unzip', ['-p', path, 'readme.txt'])).stdout).toBe('hello');

    // Stamping the stamped jar again (no placeholders are left) replaces the entry once more.
    const again = await stampFile(readFileSync(path), VALUES, [{ name: JWS_NAME, data: Buffer.from('second') }]);
    const againPath = save('plain-again.jar', again);
    expect((await run('jar', ['tf', againPath])).stdout.trim().split('\n').filter((n) => n === JWS_NAME)).toHaveLength(1);
    expect((await run('unzip', ['-p', againPath, JWS_NAME])).stdout).toBe('second');
  });

  it('is deterministic: the same jar, values and entries give the same bytes', async () => {
    const original = readFileSync(await packJar(join(dir, 'same.jar'), [roots.classes, roots.resources]));
    expect((await stampFile(original)).equals(await stampFile(original))).toBe(true);
  });

  it('a signed jar with placeholders is delivered unsigned and loads; one without keeps its signature', { timeout: 90_000 }, async () => {
    const keystore = join(dir, 'signing.p12');
    await run('keytool', ['-genkeypair', '-keystore', keystore, '-storetype', 'PKCS12', '-storepass', 'changeit', '-alias', 'vendor', '-keyalg', 'RSA', '-keysize', '2048', '-dname', 'CN=Vendor', '-validity', '2']);
    const sign = (path: string) => run('jarsigner', ['-keystore', keystore, '-storepass', 'changeit', path, 'vendor']);

    const signedPath = await packJar(join(dir, 'signed.jar'), [roots.classes, roots.resources]);
    await sign(signedPath);
    const signed = readFileSync(signedPath);
    const stampedPath = save('signed-stamped.jar', await stampFile(signed));
    expect(await runJava(stampedPath, 'demo.Stamped')).toEqual(expectedOutput(VALUES));
    const listed = (await run('jar', ['tf', stampedPath])).stdout.trim().split('\n');
    expect(listed.filter((n) => /^META-INF\/.*\.(SF|RSA)$/.test(n))).toEqual([]);
    expect(listed).toContain('META-INF/MANIFEST.MF');

    const plainRoot = join(dir, 'signed-plain-root');
    writeTree(plainRoot, { 'readme.txt': 'no classes to stamp' });
    const plainPath = await packJar(join(dir, 'signed-plain.jar'), [plainRoot]);
    await sign(plainPath);
    const keptPath = save('signed-plain-stamped.jar', await stampFile(readFileSync(plainPath)));
    expect((await run('jar', ['tf', keptPath])).stdout).toMatch(/META-INF\/VENDOR\.SF/);
    expect((await run('jarsigner', ['-verify', keptPath])).stdout).toContain('jar verified');
  });

  it('refuses a value that does not fit a constant, and a missing one, before reading anything', async () => {
    const jar = bufferFile(Buffer.alloc(0));
    const index = { format: 1 as const, size: 0, directory: { offset: 0, size: 0, entries: 0 }, stamp: [] };
    expect(() => stampJar(jar, index, { ...VALUES, '%%__LICENSING_NONCE__%%': 'x'.repeat(70_000) }, [])).toThrow(RangeError);
    const { ['%%__LICENSING_NONCE__%%']: _, ...missing } = VALUES;
    expect(() => stampJar(jar, index, missing as Record<Placeholder, string>, [])).toThrow(/NONCE/);
    expect(() => stampJar(jar, index, VALUES, [{ name: 'a', data: Buffer.alloc(0) }, { name: 'a', data: Buffer.alloc(0) }])).toThrow(/twice/);
  });

  it('an index of another file is refused as the stream error', async () => {
    const a = readFileSync(await packJar(join(dir, 'a.jar'), [roots.classes]));
    const b = readFileSync(await packJar(join(dir, 'b.jar'), [roots.classes, roots.resources]));
    const { index } = await indexJar(bufferFile(a));
    await expect(collect(stampJar(bufferFile(b), index, VALUES, []))).rejects.toThrow(/another file/);
  });
});
