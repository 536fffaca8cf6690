// Both clients' `update check` and `update download` (TypeScript and Java command lines as
// child processes) against a real running service, and against fake servers of the test's
// own for forged answers and stamped jars. Needs `npm run build:clients` (part of `pretest`).
import { execFile } from 'node:child_process';
import { createHash, generateKeyPairSync, sign } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProduct, newLicense } from '../helpers/fixtures.js';
import { downloadRelease, newRelease, storedZip } from '../helpers/releases.js';
import { DIALECTS, startTestApp, type TestApp } from '../helpers/test-app.js';
import { until } from '../helpers/until.js';

const CLIENTS = [
  { name: 'typescript', command: [process.execPath, 'clients/typescript/dist/cli.js'] },
  { name: 'java', command: ['java', '-jar', 'clients/java/build/license-client.jar'] },
] as const;

const DOWNLOAD_ENTRY = 'META-INF/LICENSING-DOWNLOAD.jws';
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

function runCli(command: readonly string[], args: string[]): Promise<Run> {
  return new Promise((resolve) => {
    execFile(command[0]!, [...command.slice(1), ...args], { timeout: 60_000 }, (err, stdout, stderr) => {
      resolve({ code: err ? (typeof err.code === 'number' ? err.code : -1) : 0, stdout: stdout.trim(), stderr });
    });
  });
}

/** A server of the test's own: `handler` answers each request with its path and JSON body. */
async function fakeServer(handler: (path: string, body: Record<string, unknown>, res: ServerResponse, req: IncomingMessage) => void | Promise<void>) {
  const server = createServer((req, res) => {
    let text = '';
    req.on('data', (c: Buffer) => (text += c.toString()));
    req.on('end', () => void handler(req.url ?? '/', JSON.parse(text || '{}') as Record<string, unknown>, res, req));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return { url: `http://127.0.0.1:${port}`, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

/** A signing key of the test's own, published as a JWK Set file, and a signer. */
function ownKey(dir: string, name: string) {
  const { publicKey, privateKey } = generateKeyPairSync('ed25519');
  const { x } = publicKey.export({ format: 'jwk' }) as { x: string };
  const kid = `test-${name}`;
  const keysFile = join(dir, `${name}-jwks.json`);
  writeFileSync(keysFile, JSON.stringify({ keys: [{ kty: 'OKP', crv: 'Ed25519', x, kid, alg: 'EdDSA', use: 'sig' }] }));
  return {
    keysFile,
    jws: (payload: unknown, typ: string) => {
      const input = `${b64({ alg: 'EdDSA', kid, typ })}.${b64(payload)}`;
      return `${input}.${sign(null, Buffer.from(input), privateKey).toString('base64url')}`;
    },
  };
}

/** Sends the service's answer to `res` (status, headers and bytes). */
function relay(res: ServerResponse, answer: { status: number; headers: Record<string, unknown>; bytes?: Buffer; text: string }, headers: Record<string, string> = {}) {
  const keep = ['content-type', 'validation-receipt', 'x-release-version', 'x-release-sha256', 'x-download-id'];
  const out: Record<string, string> = {};
  for (const name of keep) if (typeof answer.headers[name] === 'string') out[name] = answer.headers[name] as string;
  res.writeHead(answer.status, { ...out, ...headers });
  res.end(answer.bytes ?? answer.text);
}

const jar = (version: string) => storedZip({ 'plugin.yml': `name: Demo\nmain: demo.Main\nversion: ${version}\n`, 'demo/Main.class': Buffer.from(`class ${version}`) });

for (const client of CLIENTS) {
  describe.each(DIALECTS)(`${client.name} client: update check and download (%s)`, (dialect) => {
    let t: TestApp;
    let dir: string;
    let keysFile: string;
    let n = 0;
    const fresh = (name: string) => join(dir, `${(n += 1)}`, name);

    beforeAll(async () => {
      if (!existsSync(client.command[client.command.length - 1]!)) throw new Error('run `npm run build:clients` first');
      t = await startTestApp(dialect, { VALIDATION_RATE_LIMIT: '100000' });
      dir = mkdtempSync(join(tmpdir(), `license-client-update-${client.name}-`));
      keysFile = join(dir, 'jwks.json');
      writeFileSync(keysFile, (await t.req('GET', '/.well-known/jwks.json')).text);
    });
    afterAll(async () => {
      await t?.close();
      if (dir) rmSync(dir, { recursive: true, force: true });
    });

    const args = (url: string, license: { id: string; productId: string }, hwid: string, keys = keysFile) =>
      ['--url', url, '--license', license.id, '--product', license.productId, '--hwid', hwid, '--keys', keys];
    const check = (url: string, license: { id: string; productId: string }, extra: string[] = [], keys = keysFile) =>
      runCli(client.command, ['update', 'check', ...args(url, license, 'HW-1', keys), ...extra]);
    const download = (url: string, license: { id: string; productId: string }, to: string, extra: string[] = [], keys = keysFile) =>
      runCli(client.command, ['update', 'download', ...args(url, license, 'HW-1', keys), '--to', to, ...extra]);

    it('check: UP_TO_DATE with nothing published, UPDATE <newer> <sha256> for an older version, UP_TO_DATE <version> for the newest; channels apart', async () => {
      const product = await createProduct(t);
      const license = await newLicense(t, { productId: product.id });
      expect(await check(t.baseUrl, license)).toMatchObject({ code: 0, stdout: 'UP_TO_DATE' });
      const older = await newRelease(t, product.id, { version: '1.0.0', bytes: Buffer.from('one') });
      await until('a later millisecond', () => Date.now() > older.publishedAtEpochMillis);
      const newer = Buffer.from('one point one');
      await newRelease(t, product.id, { version: '1.1.0', bytes: newer });
      expect(await check(t.baseUrl, license, ['--version', '1.0.0'])).toMatchObject({ code: 0, stdout: `UPDATE 1.1.0 ${sha256(newer)}` });
      expect(await check(t.baseUrl, license)).toMatchObject({ code: 0, stdout: `UPDATE 1.1.0 ${sha256(newer)}` });
      expect(await check(t.baseUrl, license, ['--version', '1.1.0'])).toMatchObject({ code: 0, stdout: 'UP_TO_DATE 1.1.0' });
      const beta = Buffer.from('two beta');
      await newRelease(t, product.id, { version: '2.0.0-beta', channel: 'beta', bytes: beta });
      expect(await check(t.baseUrl, license, ['--version', '1.1.0', '--channel', 'beta'])).toMatchObject({ code: 0, stdout: `UPDATE 2.0.0-beta ${sha256(beta)}` });
      expect((await check(t.baseUrl, license, ['--version', '1.1.0'])).stdout).toBe('UP_TO_DATE 1.1.0');
      // Past its window of updates the license still validates, and hears of nothing newer.
      const lapsed = await newLicense(t, { productId: product.id, updatesUntilEpochMillis: older.publishedAtEpochMillis });
      expect(await check(t.baseUrl, lapsed, ['--version', '1.0.0'])).toMatchObject({ code: 0, stdout: 'UP_TO_DATE 1.0.0' });
    }, 120_000);

    it('download: writes the newest release beside nothing else, prints its version and path, replaces an older file; the machine is bound', async () => {
      const product = await createProduct(t);
      const license = await newLicense(t, { productId: product.id, maxHwids: 1 });
      const bytes = Buffer.from('the plugin, version 3');
      const release = await newRelease(t, product.id, { version: '3.0.0', bytes, name: 'plugin-3.0.0.bin' });
      const to = fresh('plugins/update/plugin.bin');
      const run = await download(t.baseUrl, license, to);
      expect(run).toMatchObject({ code: 0, stdout: `DOWNLOADED 3.0.0 ${to}` });
      expect(sha256(readFileSync(to))).toBe(sha256(bytes));
      expect(readdirSync(join(to, '..'))).toEqual(['plugin.bin']); // no temporary file left
      writeFileSync(to, 'an older copy');
      expect((await download(t.baseUrl, license, to)).code).toBe(0);
      expect(readFileSync(to)).toEqual(bytes);
      const downloads = (await t.admin('GET', `/releases/${release.id}/downloads`)).json as { hwid: string; sha256: string }[];
      expect(downloads).toHaveLength(2);
      expect(downloads.every((d) => d.hwid === 'HW-1' && d.sha256 === sha256(bytes))).toBe(true);
      // decided as a validation: HW-1 took the one seat
      expect((await t.req('POST', '/licenses/validate', { body: { licenseId: license.id, productId: product.id, hwid: 'HW-2' } })).json.valid).toBe(false);
    }, 120_000);

    it('download: a jar arrives whole and stamped, with the sha256 of the bytes the service sent', async () => {
      const product = await createProduct(t);
      const license = await newLicense(t, { productId: product.id });
      const release = await newRelease(t, product.id, { version: '4.0.0', bytes: jar('4.0.0'), name: 'Demo-4.0.0.jar' });
      const to = fresh('Demo.jar');
      expect(await download(t.baseUrl, license, to)).toMatchObject({ code: 0, stdout: `DOWNLOADED 4.0.0 ${to}` });
      const [recorded] = (await t.admin('GET', `/releases/${release.id}/downloads`)).json as { sha256: string }[];
      // the stamped bytes (with the signed download entry), not the release file: accepted by that entry
      expect(sha256(readFileSync(to))).toBe(recorded!.sha256);
      expect(recorded!.sha256).not.toBe(release.file.sha256);
      expect(readFileSync(to).includes(DOWNLOAD_ENTRY)).toBe(true);
    }, 120_000);

    it('a refused license: INVALID REJECTED, exit 1, nothing written; a refusal at the download itself gives its reason', async () => {
      const product = await createProduct(t, { revealReasons: true });
      await newRelease(t, product.id, { version: '1.0.0' });
      const revoked = await newLicense(t, { productId: product.id });
      expect((await t.admin('POST', `/licenses/${revoked.id}/revoke`, { body: {} })).status).toBe(200);
      expect(await check(t.baseUrl, revoked)).toMatchObject({ code: 1, stdout: 'INVALID REJECTED' });
      const to = fresh('plugin.bin');
      expect(await download(t.baseUrl, revoked, to)).toMatchObject({ code: 1, stdout: 'INVALID REJECTED' });
      expect(existsSync(join(to, '..'))).toBe(false);

      // Revoked between the check and the download: the service's 403 and its reason.
      const license = await newLicense(t, { productId: product.id });
      const proxy = await fakeServer(async (path, body, res) => {
        if (path === '/releases/download') {
          await t.admin('POST', `/licenses/${license.id}/revoke`, { body: {} });
          return relay(res, await downloadRelease(t, body));
        }
        relay(res, await t.req('POST', path, { body }));
      });
      try {
        expect(await download(proxy.url, license, to)).toMatchObject({ code: 1, stdout: 'INVALID REJECTED REVOKED' });
        expect(existsSync(to)).toBe(false);
      } finally {
        await proxy.close();
      }
    }, 120_000);

    it('a check signed by a key this copy does not pin: INVALID UNVERIFIED, exit 1, nothing downloaded', async () => {
      const product = await createProduct(t);
      const license = await newLicense(t, { productId: product.id });
      const release = await newRelease(t, product.id, { version: '1.0.0' });
      const other = ownKey(dir, `other-${n}`);
      expect(await check(t.baseUrl, license, [], other.keysFile)).toMatchObject({ code: 1, stdout: 'INVALID UNVERIFIED' });
      const to = fresh('plugin.bin');
      expect(await download(t.baseUrl, license, to, [], other.keysFile)).toMatchObject({ code: 1, stdout: 'INVALID UNVERIFIED' });
      expect(existsSync(to)).toBe(false);
      expect((await t.admin('GET', `/releases/${release.id}/downloads`)).json).toEqual([]);
    }, 120_000);
  });

  // Forged answers need a server of the test's own; one dialect suffices (a client sees HTTP only).
  describe(`${client.name} client: forged update answers`, () => {
    let t: TestApp;
    let dir: string;
    let keysFile: string;
    let n = 0;
    const fresh = (name: string) => join(dir, `${(n += 1)}`, name);

    beforeAll(async () => {
      t = await startTestApp('sqlite', { VALIDATION_RATE_LIMIT: '100000' });
      dir = mkdtempSync(join(tmpdir(), `license-client-forged-${client.name}-`));
      keysFile = join(dir, 'jwks.json');
      writeFileSync(keysFile, (await t.req('GET', '/.well-known/jwks.json')).text);
    });
    afterAll(async () => {
      await t?.close();
      if (dir) rmSync(dir, { recursive: true, force: true });
    });

    const license = { id: 'LIC-1', productId: 'PROD-1' };
    const args = (url: string, keys: string) => ['--url', url, '--license', license.id, '--product', license.productId, '--hwid', 'HW-1', '--keys', keys];

    it('refuses bytes that are not X-Release-Sha256 (other bytes, or another header), and a genuine check replayed for another request', async () => {
      const product = await createProduct(t);
      const real = await newLicense(t, { productId: product.id });
      await newRelease(t, product.id, { version: '1.0.0', bytes: Buffer.from('genuine bytes') });
      let replay: string | null = null;
      let forge: 'bytes' | 'header' = 'bytes';
      const proxy = await fakeServer(async (path, body, res) => {
        if (path === '/releases/download') {
          const answer = await downloadRelease(t, body);
          // other bytes under the genuine header, or the genuine bytes under another header
          if (forge === 'bytes') return relay(res, { ...answer, bytes: Buffer.from('forged bytes!') });
          return relay(res, answer, { 'x-release-sha256': sha256(Buffer.from('forged bytes!')) });
        }
        const answer = await t.req('POST', path, { body });
        if (replay === null) return relay(res, answer);
        relay(res, answer, { 'validation-receipt': replay }); // an earlier genuine answer

      });
      const realArgs = ['--url', proxy.url, '--license', real.id, '--product', product.id, '--hwid', 'HW-1', '--keys', keysFile];
      try {
        const to = fresh('plugin.bin');
        expect(await runCli(client.command, ['update', 'download', ...realArgs, '--to', to])).toMatchObject({ code: 1, stdout: 'INVALID UNVERIFIED' });
        expect(existsSync(join(to, '..')) ? readdirSync(join(to, '..')) : []).toEqual([]); // the temporary file is gone too
        forge = 'header';
        expect(await runCli(client.command, ['update', 'download', ...realArgs, '--to', to])).toMatchObject({ code: 1, stdout: 'INVALID UNVERIFIED' });
        expect(existsSync(to)).toBe(false);
        const genuine = await t.req('POST', '/releases/latest', { body: { licenseId: real.id, productId: product.id, hwid: 'HW-1', nonce: 'n'.repeat(32) } });
        replay = genuine.headers['validation-receipt'] as string;
        expect(await runCli(client.command, ['update', 'check', ...realArgs])).toMatchObject({ code: 1, stdout: 'INVALID UNVERIFIED' });
      } finally {
        await proxy.close();
      }
    }, 120_000);

    it('a stamped jar (bytes not the release file): accepted by its signed download entry naming this license and the checked release, else UNVERIFIED', async () => {
      const key = ownKey(dir, `stamping-${n}`);
      const original = jar('5.0.0');
      const latest = { version: '5.0.0', sha256: sha256(original), size: original.length, publishedAtEpochMillis: 1_700_000_000_000 };
      let entry: (downloadId: string) => string | null = () => null;
      let asked: Record<string, unknown> = {};
      const fake = await fakeServer((path, body, res) => {
        if (path === '/releases/latest') {
          const receipt = key.jws({ licenseId: body.licenseId, productId: body.productId, hwid: body.hwid ?? null, nonce: body.nonce, valid: true, latest, timestampEpochMillis: Date.now() }, 'release-check');
          res.writeHead(200, { 'content-type': 'application/json', 'validation-receipt': receipt });
          res.end(JSON.stringify({ valid: true, latest, current: null, update: true }));
          return;
        }
        asked = body;
        const signed = entry('D-1');
        const stamped = jar('5.0.0 stamped for LIC-1');
        const bytes = signed === null ? stamped : storedZip({ 'plugin.yml': 'main: demo.Main\n', [DOWNLOAD_ENTRY]: signed });
        res.writeHead(200, { 'content-type': 'application/java-archive', 'x-release-version': '5.0.0', 'x-release-sha256': sha256(bytes), 'x-download-id': 'D-1' });
        res.end(bytes);
      });
      const download = (to: string) => runCli(client.command, ['update', 'download', ...args(fake.url, key.keysFile), '--to', to]);
      const claims = (over: Record<string, unknown> = {}) => ({ downloadId: 'D-1', licenseId: license.id, releaseId: 'R-1', sha256: latest.sha256, iatEpochMillis: Date.now(), ...over });
      try {
        entry = (id) => key.jws(claims({ downloadId: id }), 'download');
        const to = fresh('Demo.jar');
        expect(await download(to)).toMatchObject({ code: 0, stdout: `DOWNLOADED 5.0.0 ${to}` });
        expect(asked).toMatchObject({ licenseId: license.id, productId: license.productId, hwid: 'HW-1', version: '5.0.0' }); // the checked version
        expect(readFileSync(to).includes(Buffer.from(DOWNLOAD_ENTRY))).toBe(true);

        const refusedWith = async (make: typeof entry) => {
          entry = make;
          const target = fresh('Demo.jar');
          const run = await download(target);
          return { ...run, written: existsSync(target) };
        };
        const unverified = { code: 1, stdout: 'INVALID UNVERIFIED', written: false };
        expect(await refusedWith(() => null)).toMatchObject(unverified); // no entry
        expect(await refusedWith(() => key.jws(claims({ sha256: sha256(Buffer.from('another release')) }), 'download'))).toMatchObject(unverified);
        expect(await refusedWith(() => key.jws(claims({ licenseId: 'LIC-2' }), 'download'))).toMatchObject(unverified);
        expect(await refusedWith(() => key.jws(claims({ downloadId: 'D-2' }), 'download'))).toMatchObject(unverified);
        expect(await refusedWith(() => key.jws(claims(), 'release-check'))).toMatchObject(unverified); // another type
        expect(await refusedWith(() => ownKey(dir, `forger-${n}`).jws(claims(), 'download'))).toMatchObject(unverified);
      } finally {
        await fake.close();
      }
    }, 120_000);

    it('--help lists update check and update download; usage errors exit 2', async () => {
      const help = await runCli(client.command, ['--help']);
      expect(help.code).toBe(0);
      expect(help.stdout).toContain('update check --url URL');
      expect(help.stdout).toContain('update download --url URL');
      expect((await runCli(client.command, ['update', '--help'])).code).toBe(0);
      expect((await runCli(client.command, ['update'])).code).toBe(2);
      expect((await runCli(client.command, ['update', 'install'])).code).toBe(2);
      expect((await runCli(client.command, ['update', 'download', ...args(t.baseUrl, keysFile)])).code).toBe(2); // no --to
      expect((await runCli(client.command, ['update', 'check', ...args(t.baseUrl, keysFile), '--channel', 'nightly'])).code).toBe(2);
    }, 60_000);
  });
}
