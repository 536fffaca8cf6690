// The portal's Integrate panel snippets (portal/src/features/products/components/
// integration-snippets.ts) and the Java README's Bukkit/Paper example, run as a vendor
// pastes them: the curl against a live service, the Node module installed next to the built
// package (and type-checked as TypeScript), the Java plugin compiled with javac against the
// built jar and a stub of the Bukkit API (test/clients/java/bukkit-stubs), then run.
// Needs `npm run build:clients`.
import { execFile } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { integrationSnippets, type Snippet } from '../../portal/src/features/products/components/integration-snippets.js';
import { newLicense } from '../helpers/fixtures.js';
import { newRelease } from '../helpers/releases.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

const run = promisify(execFile);
const ROOT = process.cwd();
const JAR = join(ROOT, 'clients/java/build/license-client.jar');
const STUBS = join(ROOT, 'test/clients/java/bukkit-stubs');

function javaSources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return javaSources(path);
    return name.endsWith('.java') ? [path] : [];
  });
}

/** Compiles a plugin class with the Bukkit stubs against the client jar; returns the classes directory. */
async function compilePlugin(dir: string, className: string, source: string): Promise<string> {
  const classes = join(dir, 'classes');
  mkdirSync(classes, { recursive: true });
  const file = join(dir, `${className}.java`);
  writeFileSync(file, source);
  await run('javac', ['--release', '17', '-Xlint:all', '-Werror', '-cp', JAR, '-d', classes, ...javaSources(STUBS), file], { timeout: 120_000 });
  return classes;
}

/** Enables the plugin on a "main" thread, lets it run `millis`, disables it: stdout lines. */
async function runPlugin(classes: string, className: string, data: string, licenseKey: string, millis: number, untilFirstLog = false, javaOptions: string[] = []): Promise<string[]> {
  const args = [...javaOptions, '-cp', `${classes}:${JAR}`, 'PluginHarness', className, data, licenseKey, String(millis), ...(untilFirstLog ? ['first-log'] : [])];
  const { stdout } = await run('java', args, { timeout: 120_000 });
  return stdout.trim().split('\n');
}

describe('Integrate panel snippets and the Java README example', () => {
  let t: TestApp;
  let dir: string;
  let jwks: string;
  let snippets: Record<Snippet['id'], Snippet>;
  let license: { id: string; productId: string };

  beforeAll(async () => {
    t = await startTestApp('sqlite', { VALIDATION_RATE_LIMIT: '100000' });
    dir = mkdtempSync(join(tmpdir(), 'integration-snippets-'));
    jwks = (await t.req('GET', '/.well-known/jwks.json')).text;
    license = await newLicense(t);
    snippets = Object.fromEntries(integrationSnippets(t.baseUrl, license.productId).map((s) => [s.id, s])) as Record<Snippet['id'], Snippet>;
  });
  afterAll(async () => {
    await t?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('says which Node the package needs', () => {
    const engines = (JSON.parse(readFileSync('clients/typescript/package.json', 'utf8')) as { engines: { node: string } }).engines.node;
    expect(engines).toBe('>=22.13');
    expect(snippets.typescript.title).toContain('Node.js 22.13+');
    expect(JSON.stringify(snippets)).not.toMatch(/Node 20/);
  });

  it('curl: validates with a nonce and gets a signed receipt', async () => {
    const command = snippets.curl.code.replace('LICENSE-KEY', license.id);
    const { stdout } = await run('bash', ['-c', command], { timeout: 60_000 });
    expect(stdout).toMatch(/^HTTP\/1\.1 200/);
    expect(stdout).toMatch(/^validation-receipt: [\w-]+\.[\w-]+\.[\w-]+\r?$/im);
    expect(stdout.trim().split('\n').at(-1)).toBe('{"valid":true}');
  });

  it('Node: the module runs as pasted next to the installed package and type-checks as TypeScript', async () => {
    const project = join(dir, 'node-app');
    mkdirSync(join(project, 'node_modules', '@licensing'), { recursive: true });
    symlinkSync(join(ROOT, 'clients/typescript'), join(project, 'node_modules', '@licensing', 'client'));
    writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'vendor-app', private: true, type: 'module' }));
    writeFileSync(join(project, 'jwks.json'), jwks);
    writeFileSync(join(project, 'license.mjs'), snippets.typescript.code);
    const ok = await run(process.execPath, ['license.mjs'], { cwd: project, env: { ...process.env, LICENSE_KEY: license.id }, timeout: 60_000 });
    expect(ok.stdout.trim()).toBe('License VALID {}');
    // The client asks for the batch-signed form: hdr..sig~claims~idx~path (docs/client-integration.md).
    expect(JSON.parse(readFileSync(join(project, 'license-cache.json'), 'utf8')).receipt).toMatch(/^[\w-]+\.\.[\w-]+~[\w-]+~\d+~[\w-]+$/);
    const refused = await run(process.execPath, ['license.mjs'], { cwd: project, env: { ...process.env, LICENSE_KEY: 'no-such-key' }, timeout: 60_000 }).catch((err: { code: number; stderr: string }) => err);
    expect(refused).toMatchObject({ code: 1 });
    expect((refused as { stderr: string }).stderr.trim()).toBe('License not valid: REJECTED');

    writeFileSync(join(project, 'license.mts'), snippets.typescript.code);
    const tsc = join(ROOT, 'node_modules/typescript/bin/tsc');
    const typeRoots = relative(project, join(ROOT, 'node_modules/@types'));
    await run(process.execPath, [tsc, '--noEmit', '--strict', '--target', 'es2022', '--module', 'nodenext', '--moduleResolution', 'nodenext', '--typeRoots', typeRoots, '--types', 'node', 'license.mts'], { cwd: project, timeout: 120_000 });
  }, 300_000);

  it('Java: the plugin compiles against the jar, validates off the main thread and acts on it', async () => {
    const work = join(dir, 'java-panel');
    const classes = await compilePlugin(work, 'MyPlugin', snippets.java.code);
    const data = join(work, 'plugin-data');
    mkdirSync(join(data, 'resources'), { recursive: true });
    writeFileSync(join(data, 'resources', 'jwks.json'), jwks);

    const valid = await runPlugin(classes, 'MyPlugin', data, license.id, 60_000, true);
    expect(valid).toContain('LOG INFO License: VALID [Server thread]');
    // onEnable returned before the answer was acted on: the network call did not block the main thread
    expect(valid.findIndex((l) => l.startsWith('onEnable returned'))).toBeLessThan(valid.indexOf('LOG INFO License: VALID [Server thread]'));
    expect(valid).not.toContain('DISABLED');
    expect(readFileSync(join(data, 'machine-id'), 'utf8').trim()).toMatch(/^[0-9a-f-]{36}$/);
    expect(JSON.parse(readFileSync(join(data, 'license-cache.json'), 'utf8')).receipt).toBeTruthy();

    const refused = await runPlugin(classes, 'MyPlugin', data, 'no-such-key', 60_000, true);
    expect(refused).toContain('LOG SEVERE License: INVALID REJECTED [Server thread]');
    expect(refused).toContain('DISABLED');
  }, 240_000);

  it("Java README: the JDK-only build command builds a runnable jar from a copy of clients/java", async () => {
    const readme = readFileSync('clients/java/README.md', 'utf8');
    const command = /# JDK 17\+ alone[^\n]*\n((?:.*\\\n)*.*)\n/.exec(readme)![1]!;
    expect(command).toMatch(/^cd clients\/java && .*javac --release 17/s);
    const copy = join(dir, 'vendor-checkout');
    cpSync('clients/java/src', join(copy, 'clients/java/src'), { recursive: true });
    await run('bash', ['-c', command], { cwd: copy, timeout: 180_000 });
    const { stdout } = await run('java', ['-jar', join(copy, 'clients/java/build/license-client.jar'), 'machine-id', '--file', join(copy, 'id')], { timeout: 60_000 });
    expect(stdout.trim()).toMatch(/^[0-9a-f-]{36}$/);
  }, 240_000);

  it('Java README: the Bukkit/Paper keepAlive example compiles, keeps the seat and frees it on disable', async () => {
    const readme = readFileSync('clients/java/README.md', 'utf8');
    const section = readme.slice(readme.indexOf('## Keeping a floating seat'));
    const seatLicense = await newLicense(t, { maxHwids: 1, selfReleaseLimit: 3 });
    // what a vendor fills in: the service's URL and the product's id
    const example = /```java\n([\s\S]*?)```/.exec(section)![1]!.replace('https://licensing.example.com', t.baseUrl).replace('my-product-id', seatLicense.productId);
    const imports = ['dev.licensing.client.*', 'java.io.IOException', 'java.nio.charset.StandardCharsets', 'java.time.Duration', 'org.bukkit.plugin.java.JavaPlugin'];
    const work = join(dir, 'java-readme');
    const classes = await compilePlugin(work, 'MyPlugin', `${imports.map((i) => `import ${i};`).join('\n')}\n\n${example}`);
    const data = join(work, 'plugin-data');
    mkdirSync(join(data, 'resources'), { recursive: true });
    writeFileSync(join(data, 'resources', 'jwks.json'), jwks);
    const lines = await runPlugin(classes, 'MyPlugin', data, seatLicense.id, 3_000);
    expect(lines, lines.join('\n')).not.toContain('DISABLED');
    expect(lines).toContain('LOG INFO License seat: RELEASED; 2 self-releases left in the rolling 30 days [Server thread]');
    const after = await t.admin('GET', `/licenses/${seatLicense.id}`);
    expect(after.json.usedHwids).toEqual([]);
  }, 240_000);

  it('Java README: the update example checks on enable and downloads the newer release into the update folder, off the main thread', async () => {
    const readme = readFileSync('clients/java/README.md', 'utf8');
    const section = readme.slice(readme.indexOf('## Updating itself'));
    const updating = await newLicense(t);
    const bytes = Buffer.from('MyPlugin 1.1.0');
    await newRelease(t, updating.productId, { version: '1.1.0', bytes, name: 'MyPlugin-1.1.0.bin' });
    const example = /```java\n([\s\S]*?)```/.exec(section)![1]!.replace('https://licensing.example.com', t.baseUrl).replace('my-product-id', updating.productId);
    const imports = ['dev.licensing.client.*', 'java.io.IOException', 'java.nio.charset.StandardCharsets', 'java.nio.file.Path', 'java.time.Duration', 'org.bukkit.plugin.java.JavaPlugin'];
    const work = join(dir, 'java-update');
    const classes = await compilePlugin(work, 'MyPlugin', `${imports.map((i) => `import ${i};`).join('\n')}\n\n${example}`);
    const data = join(work, 'plugins', 'MyPlugin');
    mkdirSync(join(data, 'resources'), { recursive: true });
    writeFileSync(join(data, 'resources', 'jwks.json'), jwks);
    const older = await runPlugin(classes, 'MyPlugin', data, updating.id, 60_000, true, ['-Dplugin.version=1.0.0']);
    const ready = older.find((line) => line.startsWith('LOG INFO Version 1.1.0 is ready'));
    expect(ready, older.join('\n')).toMatch(/\[Craft Scheduler Thread - \d+\]$/); // not the server's main thread
    expect(readFileSync(join(work, 'plugins', 'update', 'MyPlugin.jar'))).toEqual(bytes);

    rmSync(join(work, 'plugins', 'update'), { recursive: true });
    const current = await runPlugin(classes, 'MyPlugin', data, updating.id, 3_000, false, ['-Dplugin.version=1.1.0']);
    expect(current.filter((line) => line.startsWith('LOG'))).toEqual([]); // up to date: nothing to say, nothing written
    expect(existsSync(join(work, 'plugins', 'update'))).toBe(false);
  }, 240_000);
});

