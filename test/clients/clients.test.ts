// Both client command-line programs (TypeScript and Java), run as child processes against a
// real running service, and against a fake server of the test's own for forged answers.
// Needs `npm run build:clients` (part of `pretest`).
import { execFile } from 'node:child_process';
import { generateKeyPairSync, sign } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newLicense, createProduct } from '../helpers/fixtures.js';
import { DIALECTS, startTestApp, type TestApp } from '../helpers/test-app.js';
import { until } from '../helpers/until.js';

const CLIENTS = [
  { name: 'typescript', command: [process.execPath, 'clients/typescript/dist/cli.js'] },
  { name: 'java', command: ['java', '-jar', 'clients/java/build/license-client.jar'] },
] as const;

interface Run {
  code: number;
  stdout: string;
  stderr: string;
  /** stdout's first line: the result (VALID, INVALID REJECTED, …). */
  line: string;
  /** The lines after it: a valid answer's expiry and features. */
  terms: string[];
}

const runCli = (command: readonly string[], args: string[]): Promise<Run> => runCliWithEnv(command, args, {});

function runCliWithEnv(command: readonly string[], args: string[], env: Record<string, string>): Promise<Run> {
  return new Promise((resolve) => {
    execFile(command[0]!, [...command.slice(1), ...args], { timeout: 60_000, env: { ...process.env, ...env } }, (err, stdout, stderr) => {
      const [line = '', ...terms] = stdout.trim().split('\n');
      resolve({ code: err ? (typeof err.code === 'number' ? err.code : -1) : 0, stdout: stdout.trim(), stderr, line, terms });
    });
  });
}

/** A fake licensing server: answers every request with `handler`. */
async function fakeServer(
  handler: (body: Record<string, string>, res: ServerResponse, req: IncomingMessage) => void,
): Promise<{ url: string; close(): Promise<void> }> {
  const server: Server = createServer((req: IncomingMessage, res) => {
    let text = '';
    req.on('data', (c: Buffer) => (text += c.toString()));
    req.on('end', () => handler(JSON.parse(text || '{}') as Record<string, string>, res, req));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return { url: `http://127.0.0.1:${port}`, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

/**
 * Replaces a receipt's payload while keeping its header and signature (what an attacker editing
 * a file does): a compact JWS's payload, or a batch receipt's claims.
 */
function withPayload(receipt: string, edit: (payload: Record<string, unknown>) => void): string {
  if (receipt.includes('~')) {
    const [jws, claims, ...rest] = receipt.split('~');
    const payload = JSON.parse(Buffer.from(claims!, 'base64url').toString()) as Record<string, unknown>;
    edit(payload);
    return [jws, b64(payload), ...rest].join('~');
  }
  const [h, p, s] = receipt.split('.');
  const payload = JSON.parse(Buffer.from(p!, 'base64url').toString()) as Record<string, unknown>;
  edit(payload);
  return `${h}.${b64(payload)}.${s}`;
}

/** A batch receipt `hdr..sig~claims~idx~path` with one part changed. */
function tamperedBatch(receipt: string, part: 'header' | 'signature' | 'claims' | 'idx' | 'path'): string {
  const [jws, claims, idx, path] = receipt.split('~') as [string, string, string, string];
  const [h, , sig] = jws.split('.') as [string, string, string];
  const flip = (text: string, at: number) => {
    const bytes = Buffer.from(text, 'base64url');
    bytes.writeUInt8(bytes[at]! ^ 0x01, at);
    return bytes.toString('base64url');
  };
  switch (part) {
    case 'header':
      return `${b64({ ...JSON.parse(Buffer.from(h, 'base64url').toString()), typ: 'validation-receipt' })}..${sig}~${claims}~${idx}~${path}`;
    case 'signature':
      return `${h}..${flip(sig, 5)}~${claims}~${idx}~${path}`;
    case 'claims':
      return `${jws}~${flip(claims, 30)}~${idx}~${path}`;
    case 'idx':
      return `${jws}~${claims}~${Number(idx) ^ 1}~${path}`;
    case 'path':
      return `${jws}~${claims}~${idx}~${flip(path, 300)}`;
  }
}

/** A signing key of the test's own, published as a JWK Set file, and a signer for receipts and license files. */
function ownKey(dir: string, name: string): { keysFile: string; jws(payload: unknown, typ?: string): string } {
  const { publicKey, privateKey } = generateKeyPairSync('ed25519');
  const { x } = publicKey.export({ format: 'jwk' }) as { x: string };
  const kid = `test-${name}`;
  const keysFile = join(dir, `${name}-jwks.json`);
  writeFileSync(keysFile, JSON.stringify({ keys: [{ kty: 'OKP', crv: 'Ed25519', x, kid, alg: 'EdDSA', use: 'sig' }] }));
  return {
    keysFile,
    jws: (payload, typ = 'validation-receipt') => {
      const input = `${b64({ alg: 'EdDSA', kid, typ })}.${b64(payload)}`;
      return `${input}.${sign(null, Buffer.from(input), privateKey).toString('base64url')}`;
    },
  };
}

const sendJson = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
};

// A client sees HTTP answers only, and the service answers alike on both databases
// (src/modules/licenses/*.test.ts run on both): the CLI and policy suites run on SQLite, the
// key rotation (the stored key ring) on both.
const CLIENT_DIALECTS = ['sqlite'] as const;

for (const client of CLIENTS) {
  describe.each(CLIENT_DIALECTS)(`${client.name} client CLI (%s)`, (dialect) => {
    let t: TestApp;
    let dir: string;
    let keysFile: string;
    let n = 0;
    const cacheFile = () => join(dir, `cache-${(n += 1)}.json`);

    beforeAll(async () => {
      if (!existsSync(client.command[client.command.length - 1]!)) throw new Error('run `npm run build:clients` first');
      t = await startTestApp(dialect, { VALIDATION_RATE_LIMIT: '100000' });
      dir = mkdtempSync(join(tmpdir(), `license-client-${client.name}-`));
      keysFile = join(dir, 'jwks.json');
      writeFileSync(keysFile, (await t.req('GET', '/.well-known/jwks.json')).text);
    });
    afterAll(async () => {
      await t?.close();
      rmSync(dir, { recursive: true, force: true });
    });

    const validate = (url: string, license: { id: string; productId: string }, hwid: string, cache: string, extra: string[] = [], keys = keysFile) =>
      runCli(client.command, ['validate', '--url', url, '--license', license.id, '--product', license.productId, '--hwid', hwid, '--keys', keys, '--cache', cache, ...extra]);

    it('prints VALID for a genuine true answer and caches the receipt', async () => {
      const license = await newLicense(t);
      const cache = cacheFile();
      expect(await validate(t.baseUrl, license, 'HW-1', cache)).toMatchObject({ code: 0, line: 'VALID' });
      const cached = JSON.parse(readFileSync(cache, 'utf8')) as { receipt: string };
      expect(cached.receipt).toMatch(/^[\w-]+\.\.[\w-]+~[\w-]+~\d+~[\w-]{427}$/); // the batch form, which the client asks for
      expect(statSync(cache).mode & 0o777).toBe(0o600); // the owner's only
    });

    it('sends the kids it pins in Receipt-Key-Ids', async () => {
      const license = await newLicense(t);
      const pinned = (JSON.parse(readFileSync(keysFile, 'utf8')) as { keys: { kid: string }[] }).keys.map((k) => k.kid);
      let header: string | string[] | undefined;
      const fake = await fakeServer((_body, res, req) => {
        header = req.headers['receipt-key-ids'];
        sendJson(res, 503, { error: 'down' });
      });
      try {
        expect((await validate(fake.url, license, 'HW', cacheFile())).stdout).toBe('INVALID UNREACHABLE');
        expect(header).toBe(pinned.join(', '));
      } finally {
        await fake.close();
      }
    });

    it('prints INVALID UNVERIFIED for a genuine receipt whose signature is re-encoded non-canonically (strict base64url)', async () => {
      const license = await newLicense(t);
      const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
      const fake = await fakeServer(async (body, res) => {
        const real = await t.req('POST', '/licenses/validate', { body });
        const [jws, ...batch] = (real.headers['validation-receipt'] as string).split('~'); // the batch form's tail, if any
        const [h, p, sig] = jws!.split('.') as [string, string, string];
        // 64 bytes in 86 characters leave the last one 4 unused bits: setting one decodes to the same signature
        const twin = `${sig.slice(0, -1)}${alphabet[alphabet.indexOf(sig.at(-1)!) | 1]}`;
        sendJson(res, 200, real.json, { 'validation-receipt': [`${h}.${p}.${twin}`, ...batch].join('~') });
      });
      try {
        expect(await validate(fake.url, license, 'HW', cacheFile())).toMatchObject({ code: 1, stdout: 'INVALID UNVERIFIED' });
        expect((await validate(t.baseUrl, license, 'HW', cacheFile())).line).toBe('VALID');
      } finally {
        await fake.close();
      }
    });

    it('asks for the batch form, and refuses a batch receipt with any part changed (INVALID UNVERIFIED)', async () => {
      const license = await newLicense(t);
      let asked: unknown;
      let part: Parameters<typeof tamperedBatch>[1] | null = null;
      const fake = await fakeServer(async (body, res) => {
        asked = body.receiptFormat;
        const real = await t.req('POST', '/licenses/validate', { body });
        const receipt = real.headers['validation-receipt'] as string;
        sendJson(res, 200, real.json, { 'validation-receipt': part ? tamperedBatch(receipt, part) : receipt });
      });
      try {
        expect((await validate(fake.url, license, 'HW', cacheFile())).line).toBe('VALID');
        expect(asked).toBe('batch');
        for (part of ['header', 'signature', 'claims', 'idx', 'path'] as const) {
          expect({ part, ...(await validate(fake.url, license, 'HW', cacheFile())) }).toMatchObject({ part, code: 1, stdout: 'INVALID UNVERIFIED' });
        }
      } finally {
        await fake.close();
      }
    });

    it("keeps verifying today's compact receipt from a service that ignores receiptFormat, online and from the cache", async () => {
      const license = await newLicense(t);
      const fake = await fakeServer(async ({ receiptFormat: _ignored, ...body }, res) => {
        const real = await t.req('POST', '/licenses/validate', { body });
        sendJson(res, 200, real.json, { 'validation-receipt': real.headers['validation-receipt'] as string });
      });
      const cache = cacheFile();
      try {
        expect((await validate(fake.url, license, 'HW', cache)).line).toBe('VALID');
      } finally {
        await fake.close();
      }
      expect((JSON.parse(readFileSync(cache, 'utf8')) as { receipt: string }).receipt).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
      expect(await validate(fake.url, license, 'HW', cache)).toMatchObject({ code: 0, line: 'VALID_OFFLINE' });
    });

    it('prints INVALID REJECTED for a genuine false answer and clears the cache', async () => {
      const license = await newLicense(t, { maxHwids: 1 });
      const cache = cacheFile();
      expect((await validate(t.baseUrl, license, 'HW-A', cache)).line).toBe('VALID');
      expect(existsSync(cache)).toBe(true);
      expect(await validate(t.baseUrl, license, 'HW-B', cache)).toMatchObject({ code: 1, stdout: 'INVALID REJECTED' });
      expect(existsSync(cache)).toBe(false);
    });

    it('prints INVALID UNVERIFIED for a fake {"valid": true} without a receipt', async () => {
      const license = await newLicense(t);
      const fake = await fakeServer((_body, res) => sendJson(res, 200, { valid: true }));
      try {
        expect(await validate(fake.url, license, 'HW', cacheFile())).toMatchObject({ code: 1, stdout: 'INVALID UNVERIFIED' });
      } finally {
        await fake.close();
      }
    });

    it('prints INVALID UNVERIFIED for a receipt signed by another key, even under the genuine kid', async () => {
      const license = await newLicense(t);
      const genuineKid = (JSON.parse(readFileSync(keysFile, 'utf8')) as { keys: { kid: string }[] }).keys[0]!.kid;
      const { privateKey } = generateKeyPairSync('ed25519');
      const fake = await fakeServer((body, res) => {
        const input = `${b64({ alg: 'EdDSA', kid: genuineKid, typ: 'validation-receipt' })}.${b64({ ...body, ip: '127.0.0.1', valid: true, timestampEpochMillis: Date.now() })}`;
        const receipt = `${input}.${sign(null, Buffer.from(input), privateKey).toString('base64url')}`;
        sendJson(res, 200, { valid: true }, { 'validation-receipt': receipt });
      });
      try {
        expect(await validate(fake.url, license, 'HW', cacheFile())).toMatchObject({ code: 1, stdout: 'INVALID UNVERIFIED' });
      } finally {
        await fake.close();
      }
    });

    it('prints INVALID UNVERIFIED for a genuine receipt replayed from an earlier request', async () => {
      const license = await newLicense(t);
      const earlier = await t.req('POST', '/licenses/validate', {
        body: { licenseId: license.id, productId: license.productId, hwid: 'HW', nonce: 'an-earlier-nonce-0123456789' },
      });
      const replayed = earlier.headers['validation-receipt'] as string;
      expect(replayed).toBeTruthy();
      const fake = await fakeServer((_body, res) => sendJson(res, 200, { valid: true }, { 'validation-receipt': replayed }));
      try {
        expect(await validate(fake.url, license, 'HW', cacheFile())).toMatchObject({ code: 1, stdout: 'INVALID UNVERIFIED' });
      } finally {
        await fake.close();
      }
    });

    it('prints INVALID RATE_LIMITED for a 429 when nothing is cached', async () => {
      const license = await newLicense(t);
      const fake = await fakeServer((_body, res) => sendJson(res, 429, { error: 'Too many requests' }, { 'retry-after': '30' }));
      try {
        expect(await validate(fake.url, license, 'HW', cacheFile())).toMatchObject({ code: 1, stdout: 'INVALID RATE_LIMITED' });
      } finally {
        await fake.close();
      }
    });

    it('runs offline on a fresh genuine cache once the service stops, unless grace is 0 or the cache was edited', async () => {
      const own = await startTestApp(dialect);
      const license = await newLicense(own);
      const ownKeys = join(dir, `own-jwks-${(n += 1)}.json`);
      writeFileSync(ownKeys, (await own.req('GET', '/.well-known/jwks.json')).text);
      const cache = cacheFile();
      expect((await validate(own.baseUrl, license, 'HW-O', cache, [], ownKeys)).line).toBe('VALID');
      const url = own.baseUrl;
      await own.close();

      expect(await validate(url, license, 'HW-O', cache, [], ownKeys)).toMatchObject({ code: 0, line: 'VALID_OFFLINE' });
      expect(await validate(url, license, 'HW-O', cache, ['--grace-hours', '0'], ownKeys)).toMatchObject({ code: 1, stdout: 'INVALID UNREACHABLE' });
      expect(await validate(url, license, 'HW-OTHER', cache, [], ownKeys)).toMatchObject({ code: 1, stdout: 'INVALID UNREACHABLE' });
      expect(await validate(url, license, 'HW-O', cacheFile(), [], ownKeys)).toMatchObject({ code: 1, stdout: 'INVALID UNREACHABLE' });

      // An edited cache: a receipt for another machine, or one made to look younger, fails its signature.
      const { receipt } = JSON.parse(readFileSync(cache, 'utf8')) as { receipt: string };
      const edited = cacheFile();
      writeFileSync(edited, JSON.stringify({ receipt: withPayload(receipt, (p) => (p.timestampEpochMillis = Date.now() + 1000)) }));
      expect(await validate(url, license, 'HW-O', edited, [], ownKeys)).toMatchObject({ code: 1, stdout: 'INVALID UNREACHABLE' });
      writeFileSync(edited, JSON.stringify({ receipt: withPayload(receipt, (p) => (p.hwid = 'HW-X')) }));
      expect(await validate(url, license, 'HW-X', edited, [], ownKeys)).toMatchObject({ code: 1, stdout: 'INVALID UNREACHABLE' });
      // The same cache stays usable when the service answers 5xx.
      const failing = await fakeServer((_body, res) => sendJson(res, 503, { error: 'down' }));
      try {
        expect(await validate(failing.url, license, 'HW-O', cache, [], ownKeys)).toMatchObject({ code: 0, line: 'VALID_OFFLINE' });
      } finally {
        await failing.close();
      }
    });

    it('verifies license files: valid, expired, wrong product, tampered, HWID not allowed', async () => {
      const license = await newLicense(t, { maxHwids: 1, expiresAtEpochMillis: Date.now() + 86_400_000 });
      await t.req('POST', '/licenses/validate', { body: { licenseId: license.id, productId: license.productId, hwid: 'HW-1' } });
      const issue = async (id: string) => {
        const res = await t.admin('POST', `/licenses/${id}/license-file`, { body: { validForDays: 10 } });
        expect(res.status).toBe(200);
        return res.json.licenseFile as string;
      };
      const verify = async (content: string, product: string, hwid?: string) => {
        const file = join(dir, `file-${(n += 1)}.lic`);
        writeFileSync(file, content);
        return runCli(client.command, ['verify-file', '--keys', keysFile, '--license-file', file, '--product', product, ...(hwid ? ['--hwid', hwid] : [])]);
      };
      const file = await issue(license.id);
      expect(await verify(file, license.productId, 'HW-1')).toMatchObject({ code: 0, line: 'VALID' });
      expect(await verify(`${JSON.stringify({ licenseFile: file })}\n`, license.productId)).toMatchObject({ code: 0, line: 'VALID' });
      expect(await verify(file, (await createProduct(t)).id)).toMatchObject({ code: 1, stdout: 'INVALID PRODUCT_MISMATCH' });
      expect(await verify(file, license.productId, 'HW-2')).toMatchObject({ code: 1, stdout: 'INVALID HWID_NOT_ALLOWED' });
      const tampered = withPayload(file, (p) => (p.maxHwids = 100));
      expect(await verify(tampered, license.productId, 'HW-2')).toMatchObject({ code: 1, stdout: 'INVALID BAD_SIGNATURE' });
      const expired = await newLicense(t, { expiresAtEpochMillis: Date.now() - 1000 });
      expect(await verify(await issue(expired.id), expired.productId)).toMatchObject({ code: 1, stdout: 'INVALID EXPIRED' });
      expect((await verify('not a license file', license.productId)).stdout).toBe('INVALID MALFORMED');
    });

    it('release: RELEASED frees the machine for another, NOT_BOUND when it was not bound, INVALID with the reason otherwise; says releases left, which limit and when it frees', async () => {
      const license = await newLicense(t, { maxHwids: 1, selfReleaseLimit: 2 });
      const release = (hwid: string, over: Partial<{ id: string; productId: string }> = {}, url = t.baseUrl) =>
        runCli(client.command, ['release', '--url', url, '--license', over.id ?? license.id, '--product', over.productId ?? license.productId, '--hwid', hwid]);
      expect((await validate(t.baseUrl, license, 'old-host', cacheFile())).line).toBe('VALID');
      expect((await validate(t.baseUrl, license, 'new-host', cacheFile())).stdout).toBe('INVALID REJECTED');
      expect(await release('never-bound')).toMatchObject({ code: 0, stdout: 'NOT_BOUND; 2 self-releases left in the rolling 30 days' });
      expect(await release('old-host')).toMatchObject({ code: 0, stdout: 'RELEASED; 1 self-release left in the rolling 30 days' });
      expect((await validate(t.baseUrl, license, 'new-host', cacheFile())).line).toBe('VALID');
      expect(await release('new-host')).toMatchObject({ code: 0, stdout: 'RELEASED; 0 self-releases left in the rolling 30 days' });
      expect((await validate(t.baseUrl, license, 'third-host', cacheFile())).line).toBe('VALID');
      const before = Date.now();
      const limited = await release('third-host');
      expect(limited.code).toBe(1);
      const match = /^INVALID RATE_LIMITED Self-service release limit reached: 2 per 30 days; try again after (\S+) \(in 30 days\)$/.exec(limited.stdout);
      expect(match, limited.stdout).not.toBeNull();
      const frees = Date.parse(match![1]!);
      expect(frees).toBeGreaterThan(before + 29 * 86_400_000); // the oldest counted release turns 30 days old
      expect(frees).toBeLessThan(Date.now() + 30 * 86_400_000 + 1000);
      expect(await release('new-host', { productId: 'other' })).toMatchObject({ code: 1, stdout: 'INVALID NOT_FOUND' });
      const off = await newLicense(t);
      expect(await release('x', off)).toMatchObject({ code: 1, stdout: 'INVALID NOT_ENABLED' });
      expect(await release('x', {}, 'http://127.0.0.1:1')).toMatchObject({ code: 1, stdout: 'INVALID UNREACHABLE' });
      expect((await runCli(client.command, ['release', '--url', t.baseUrl, '--license', license.id])).code).toBe(2);
    }, 120_000);

    it('release: a bare 429 from the request limiter names that limit and its wait', async () => {
      const fake = await fakeServer((_body, res) => {
        res.writeHead(429, { 'content-type': 'text/plain', 'retry-after': '42' });
        res.end('Too Many Requests');
      });
      try {
        const limited = await runCli(client.command, ['release', '--url', fake.url, '--license', 'L', '--product', 'P', '--hwid', 'H']);
        expect(limited.code).toBe(1);
        expect(limited.stdout).toMatch(/^INVALID RATE_LIMITED Too many requests from this address; try again after \S+Z \(in 42 seconds\)$/);
      } finally {
        await fake.close();
      }
    });

    it('policy fields in receipts signed by a pinned key: VALID GRACE <end>, INVALID REJECTED <REASON>, older receipts unchanged', async () => {
      const key = ownKey(dir, `policy-${(n += 1)}`);
      const license = { id: 'L-policy', productId: 'P-policy' };
      let extra: Record<string, unknown> = {};
      let valid = true;
      const fake = await fakeServer((body, res) => {
        const receipt = key.jws({ ...body, ip: '127.0.0.1', valid, timestampEpochMillis: Date.now(), ...extra });
        sendJson(res, 200, { valid, ...(typeof extra.reason === 'string' ? { reason: extra.reason } : {}) }, { 'validation-receipt': receipt });
      });
      try {
        const graceEnd = Date.UTC(2031, 0, 2, 3, 4, 5, 6);
        extra = { expiresAtEpochMillis: Date.now() - 1000, graceEndsAtEpochMillis: graceEnd, features: { pro: true }, slotTimeoutMinutes: 30, reason: 'GRACE' };
        const cache = cacheFile();
        expect(await validate(fake.url, license, 'HW', cache, [], key.keysFile)).toMatchObject({ code: 0, line: 'VALID GRACE 2031-01-02T03:04:05.006Z' });
        extra = { expiresAtEpochMillis: null, graceEndsAtEpochMillis: null, features: {}, slotTimeoutMinutes: null, reason: 'VALID' };
        expect(await validate(fake.url, license, 'HW', cache, [], key.keysFile)).toMatchObject({ code: 0, line: 'VALID' });
        extra = {};
        expect(await validate(fake.url, license, 'HW', cache, [], key.keysFile)).toMatchObject({ code: 0, line: 'VALID', terms: ['expires unknown', 'features {}'] });
        valid = false;
        expect(await validate(fake.url, license, 'HW', cache, [], key.keysFile)).toMatchObject({ code: 1, stdout: 'INVALID REJECTED' });
        extra = { reason: 'HWID_LIMIT_REACHED', features: {} };
        expect(await validate(fake.url, license, 'HW', cache, [], key.keysFile)).toMatchObject({ code: 1, stdout: 'INVALID REJECTED HWID_LIMIT_REACHED' });
        extra = { reason: 'lower case or\nanother line' };
        expect(await validate(fake.url, license, 'HW', cache, [], key.keysFile)).toMatchObject({ code: 1, stdout: 'INVALID REJECTED' });
      } finally {
        await fake.close();
      }
    }, 120_000);

    it('verify-file: VALID GRACE <end> for a file issued in grace, on a bound machine only, until the grace ends', async () => {
      const key = ownKey(dir, `file-${(n += 1)}`);
      const now = Date.now();
      const payload = { licenseId: 'L', productId: 'P', customerId: 'C', maxIps: null, maxHwids: 2, usedIps: [], usedHwids: ['HW-1'], issuedAtEpochMillis: now, validUntilEpochMillis: now + 86_400_000 };
      const verify = async (claims: Record<string, unknown>, hwid: string) => {
        const file = join(dir, `grace-${(n += 1)}.lic`);
        writeFileSync(file, key.jws({ ...payload, ...claims }, 'license-file'));
        return runCli(client.command, ['verify-file', '--keys', key.keysFile, '--license-file', file, '--product', 'P', '--hwid', hwid]);
      };
      const graceEnd = now + 3 * 86_400_000;
      const grace = { expiresAtEpochMillis: now - 1000, graceEndsAtEpochMillis: graceEnd, features: { pro: true } };
      expect(await verify(grace, 'HW-1')).toMatchObject({ code: 0, line: `VALID GRACE ${new Date(graceEnd).toISOString()}` });
      expect(await verify(grace, 'HW-2')).toMatchObject({ code: 1, stdout: 'INVALID HWID_NOT_ALLOWED' });
      expect(await verify({ ...grace, graceEndsAtEpochMillis: now - 1 }, 'HW-1')).toMatchObject({ code: 1, stdout: 'INVALID EXPIRED' });
      expect(await verify({ expiresAtEpochMillis: now + 86_400_000, graceEndsAtEpochMillis: null, features: { pro: true } }, 'HW-2')).toMatchObject({ code: 0, line: 'VALID' });
    }, 120_000);

    it('machine-id: one id per file, the same on every run and for racing first runs, mode 0600, LICENSE_MACHINE_ID wins', async () => {
      const file = join(dir, `ids-${(n += 1)}`, 'machine-id');
      const runs = await Promise.all(Array.from({ length: 4 }, () => runCli(client.command, ['machine-id', '--file', file])));
      expect(runs.map((r) => r.code)).toEqual([0, 0, 0, 0]);
      const id = runs[0]!.stdout;
      expect(id).toMatch(/^[0-9a-f-]{36}$/);
      expect(runs.map((r) => r.stdout)).toEqual([id, id, id, id]);
      expect((await runCli(client.command, ['machine-id', '--file', file])).stdout).toBe(id);
      expect(readFileSync(file, 'utf8').trim()).toBe(id);
      expect(statSync(file).mode & 0o777).toBe(0o600);
      const other = await runCli(client.command, ['machine-id', '--file', join(dir, `ids-${(n += 1)}`, 'machine-id')]);
      expect(other.stdout).not.toBe(id);
      const overridden = await runCliWithEnv(client.command, ['machine-id', '--file', file], { LICENSE_MACHINE_ID: 'panel-server-7' });
      expect(overridden.stdout).toBe('panel-server-7');
      // a damaged file is replaced by a fresh id
      writeFileSync(file, '\n');
      const fresh = (await runCli(client.command, ['machine-id', '--file', file])).stdout;
      expect(fresh).toMatch(/^[0-9a-f-]{36}$/);
      expect(fresh).not.toBe(id);
    });

    it('--help (also -h, help, and after a command) prints the usage on stdout and exits 0', async () => {
      for (const args of [['--help'], ['-h'], ['help'], ['validate', '--help'], ['release', '--url', t.baseUrl, '--help']]) {
        const help = await runCli(client.command, args);
        expect(help, args.join(' ')).toMatchObject({ code: 0, line: 'usage:' });
        for (const command of ['validate', 'verify-file', 'release', 'machine-id', '--help']) expect(help.stdout).toContain(` ${command}`);
        expect(help.stdout).toContain('expires <ISO-8601>');
      }
    });

    it('prints the expiry and the features of a valid answer (online, offline and from a license file), none with a refusal', async () => {
      const expiresAt = Date.UTC(2031, 0, 2, 3, 4, 5, 6);
      const product = await createProduct(t, { features: { pro: true, seats: 5, tier: 'gold' } });
      // a string feature with a quote, a backslash, a new line and non-ASCII: one line of ASCII, the same from both CLIs
      const note = 'say "hi"\\\nto café ✓';
      const license = await newLicense(t, { productId: product.id, expiresAtEpochMillis: expiresAt, features: { seats: 10, tier: null, note } });
      const features = 'features {"note":"say \\"hi\\"\\\\\\u000ato caf\\u00e9 \\u2713","pro":true,"seats":10}';
      const cache = cacheFile();
      expect(await validate(t.baseUrl, license, 'HW-T', cache)).toMatchObject({ code: 0, line: 'VALID', terms: ['expires 2031-01-02T03:04:05.006Z', features] });
      expect(await validate('http://127.0.0.1:1', license, 'HW-T', cache)).toMatchObject({ code: 0, line: 'VALID_OFFLINE', terms: ['expires 2031-01-02T03:04:05.006Z', features] });
      const perpetual = await newLicense(t, { maxHwids: 1 });
      expect(await validate(t.baseUrl, perpetual, 'HW-1', cacheFile())).toMatchObject({ code: 0, line: 'VALID', terms: ['expires never', 'features {}'] });
      expect(await validate(t.baseUrl, perpetual, 'HW-2', cacheFile())).toMatchObject({ code: 1, stdout: 'INVALID REJECTED', terms: [] });

      const file = join(dir, `terms-${(n += 1)}.lic`);
      writeFileSync(file, (await t.admin('POST', `/licenses/${license.id}/license-file`, { body: { validForDays: 10 } })).json.licenseFile as string);
      const verified = await runCli(client.command, ['verify-file', '--keys', keysFile, '--license-file', file, '--product', license.productId]);
      expect(verified).toMatchObject({ code: 0, line: 'VALID', terms: ['expires 2031-01-02T03:04:05.006Z', features] });
    });

    it('release: INVALID BLOCKED for a blocked machine, INVALID FORBIDDEN for a 403 the service does not give', async () => {
      const license = await newLicense(t, { selfReleaseLimit: 3 });
      const hwid = `HW-BLOCKED-${(n += 1)}`;
      expect((await validate(t.baseUrl, license, hwid, cacheFile())).line).toBe('VALID');
      expect((await t.admin('POST', '/blocklist', { body: { type: 'hwid', value: hwid } })).status).toBe(201);
      const release = (url: string) => runCli(client.command, ['release', '--url', url, '--license', license.id, '--product', license.productId, '--hwid', hwid]);
      expect(await release(t.baseUrl)).toMatchObject({ code: 1, stdout: 'INVALID BLOCKED' });
      expect((await t.admin('GET', `/licenses/${license.id}`)).json.usedHwids).toEqual([hwid]); // nothing released
      const proxy = await fakeServer((_body, res) => {
        res.writeHead(403, { 'content-type': 'text/html' });
        res.end('<html>Forbidden</html>');
      });
      try {
        expect(await release(proxy.url)).toMatchObject({ code: 1, stdout: 'INVALID FORBIDDEN' });
      } finally {
        await proxy.close();
      }
    });

    it('exits 2 on usage errors', async () => {
      expect((await runCli(client.command, [])).code).toBe(2);
      expect((await runCli(client.command, ['frobnicate'])).code).toBe(2);
      expect((await runCli(client.command, ['validate', '--url', t.baseUrl])).code).toBe(2);
      const full = ['validate', '--url', t.baseUrl, '--license', 'L', '--product', 'P', '--hwid', 'H', '--keys', keysFile, '--cache', join(dir, 'c.json')];
      expect((await runCli(client.command, [...full, '--grace-hours', '-1'])).code).toBe(2);
      expect((await runCli(client.command, [...full.slice(0, 9), join(dir, 'missing.json'), ...full.slice(10)])).code).toBe(2);
    });
  });
}

// License policies against the real service (DECISIONS.md "License policies"): the CLIs'
// VALID GRACE and INVALID REJECTED <REASON> lines, and both libraries' features online,
// offline from the cache and from a license file.
for (const client of CLIENTS) {
  describe.each(CLIENT_DIALECTS)(`${client.name} client with license policies (%s)`, (dialect) => {
    let t: TestApp;
    let dir: string;
    let keysFile: string;
    let n = 0;
    beforeAll(async () => {
      t = await startTestApp(dialect, { VALIDATION_RATE_LIMIT: '100000' });
      dir = mkdtempSync(join(tmpdir(), `license-client-policies-${client.name}-`));
      keysFile = join(dir, 'jwks.json');
      writeFileSync(keysFile, (await t.req('GET', '/.well-known/jwks.json')).text);
    });
    afterAll(async () => {
      await t?.close();
      rmSync(dir, { recursive: true, force: true });
    });
    const validate = (license: { id: string; productId: string }, hwid: string) =>
      runCli(client.command, ['validate', '--url', t.baseUrl, '--license', license.id, '--product', license.productId, '--hwid', hwid, '--keys', keysFile, '--cache', join(dir, `cache-${(n += 1)}.json`)]);
    const issueFile = async (licenseId: string) => {
      const res = await t.admin('POST', `/licenses/${licenseId}/license-file`, { body: { validForDays: 10 } });
      expect(res.status).toBe(200);
      const file = join(dir, `file-${(n += 1)}.lic`);
      writeFileSync(file, res.json.licenseFile as string);
      return file;
    };
    const verifyFile = (file: string, productId: string, hwid: string) =>
      runCli(client.command, ['verify-file', '--keys', keysFile, '--license-file', file, '--product', productId, '--hwid', hwid]);

    it('prints INVALID REJECTED <REASON> where the product reveals reasons, and the bare line where it does not', async () => {
      const revealing = await createProduct(t, { revealReasons: true });
      const license = await newLicense(t, { productId: revealing.id, maxHwids: 1 });
      expect(await validate(license, 'HW-1')).toMatchObject({ code: 0, line: 'VALID' });
      expect(await validate(license, 'HW-2')).toMatchObject({ code: 1, stdout: 'INVALID REJECTED HWID_LIMIT_REACHED' });
      expect(await validate({ ...license, productId: (await createProduct(t)).id }, 'HW-1')).toMatchObject({ code: 1, stdout: 'INVALID REJECTED PRODUCT_MISMATCH' });
      expect((await t.admin('POST', `/licenses/${license.id}/revoke`, { body: { reason: 'refund' } })).status).toBe(200);
      expect(await validate(license, 'HW-1')).toMatchObject({ code: 1, stdout: 'INVALID REJECTED REVOKED' });
      const quiet = await newLicense(t, { maxHwids: 1 });
      expect((await validate(quiet, 'HW-1')).line).toBe('VALID');
      expect(await validate(quiet, 'HW-2')).toMatchObject({ code: 1, stdout: 'INVALID REJECTED' });
      const hidden = await newLicense(t, { productId: revealing.id, maxHwids: 1, revealReasons: false }); // the license's own setting wins
      expect((await validate(hidden, 'HW-1')).line).toBe('VALID');
      expect(await validate(hidden, 'HW-2')).toMatchObject({ code: 1, stdout: 'INVALID REJECTED' });
    }, 120_000);

    it('prints VALID GRACE <grace end> for a bound machine in grace, INVALID REJECTED GRACE_UNBOUND for a new one; the license file agrees', async () => {
      const product = await createProduct(t, { revealReasons: true });
      const license = await newLicense(t, { productId: product.id, graceDays: 3, expiresAtEpochMillis: Date.now() + 86_400_000 });
      expect((await validate(license, 'HW-1')).line).toBe('VALID');
      const expiredAt = Date.now() - 60_000;
      expect((await t.admin('PATCH', `/licenses/${license.id}`, { body: { expiresAtEpochMillis: expiredAt } })).status).toBe(200);
      const graceEnd = new Date(expiredAt + 3 * 86_400_000).toISOString();
      expect(await validate(license, 'HW-1')).toMatchObject({ code: 0, line: `VALID GRACE ${graceEnd}` });
      expect(await validate(license, 'HW-2')).toMatchObject({ code: 1, stdout: 'INVALID REJECTED GRACE_UNBOUND' });
      const file = await issueFile(license.id);
      expect(await verifyFile(file, license.productId, 'HW-1')).toMatchObject({ code: 0, line: `VALID GRACE ${graceEnd}` });
      expect(await verifyFile(file, license.productId, 'HW-2')).toMatchObject({ code: 1, stdout: 'INVALID HWID_NOT_ALLOWED' });
      // Past the grace: expired everywhere.
      expect((await t.admin('PATCH', `/licenses/${license.id}`, { body: { expiresAtEpochMillis: Date.now() - 4 * 86_400_000 } })).status).toBe(200);
      expect(await validate(license, 'HW-1')).toMatchObject({ code: 1, stdout: 'INVALID REJECTED EXPIRED' });
      expect(await verifyFile(await issueFile(license.id), license.productId, 'HW-1')).toMatchObject({ code: 1, stdout: 'INVALID EXPIRED' });
    }, 120_000);

    it('the library exposes the effective features online, offline from the cache and from a license file', async () => {
      const product = await createProduct(t, { features: { pro: true, seats: 5, tier: 'gold' }, revealReasons: true });
      const license = await newLicense(t, { productId: product.id, slotTimeoutMinutes: 30, features: { seats: 10, tier: null } });
      const cache = join(dir, `lib-cache-${(n += 1)}.json`);
      const file = await issueFile(license.id);
      if (client.name === 'java') {
        const { stdout, stderr } = await promisify(execFile)('java', ['-cp', 'clients/java/build/license-client.jar', 'test/clients/java/PolicyCheck.java', t.baseUrl, keysFile, cache, license.id, license.productId, 'HW-F', file], { timeout: 90_000 });
        expect(stderr).toBe('');
        expect(stdout.trim().split('\n')).toEqual([
          'validate VALID features {pro=true, seats=10} pro true slot 30 reason VALID',
          'offline VALID_OFFLINE features {pro=true, seats=10} seats 10',
          'file VALID features {pro=true, seats=10} slot 30',
        ]);
        return;
      }
      const { LicenseClient, verifyLicenseFile } = (await import(join(process.cwd(), 'clients/typescript/dist/index.js'))) as typeof import('../../clients/typescript/src/index.js');
      const jwks = JSON.parse(readFileSync(keysFile, 'utf8')) as import('../../clients/typescript/src/index.js').JwkSet;
      const request = { licenseId: license.id, productId: license.productId, hwid: 'HW-F' };
      const online = new LicenseClient({ url: t.baseUrl, jwks, cacheFile: cache });
      const result = await online.validate(request);
      expect(result.status).toBe('VALID');
      expect(online.features).toEqual({ pro: true, seats: 10 });
      expect(online.feature('pro')).toBe(true);
      expect(result.status !== 'INVALID' && result.terms).toMatchObject({ slotTimeoutMinutes: 30, reason: 'VALID', graceEndsAtEpochMillis: null, expiresAtEpochMillis: null });
      const offline = new LicenseClient({ url: 'http://127.0.0.1:1', jwks, cacheFile: cache });
      expect((await offline.validateOffline(request)).status).toBe('VALID_OFFLINE');
      expect(offline.feature('seats')).toBe(10);
      expect(offline.feature('tier')).toBeUndefined();
      const checked = verifyLicenseFile(readFileSync(file, 'utf8'), { jwks, productId: license.productId, hwid: 'HW-F' });
      expect(checked.valid && checked.terms.features).toEqual({ pro: true, seats: 10 });
      expect(checked.valid && checked.terms.slotTimeoutMinutes).toBe(30);

      // keepAlive holds the seat (each round refreshes the binding) and frees it on stop.
      const seatLicense = await newLicense(t, { productId: product.id, maxHwids: 1, slotTimeoutMinutes: 1, selfReleaseLimit: 5 });
      const seen: string[] = [];
      const seat = online.keepAlive({ licenseId: seatLicense.id, productId: seatLicense.productId, hwid: 'HW-SEAT' }, { intervalMs: 1_000, onResult: (r) => seen.push(r.status) });
      await until('two keep-alive rounds', () => seen.length, (rounds) => rounds >= 2, { timeoutMs: 10_000 });
      expect((await t.admin('GET', `/licenses/${seatLicense.id}`)).json.usedHwids).toEqual(['HW-SEAT']);
      const released = await seat.stop();
      expect(seen.length).toBeGreaterThanOrEqual(2);
      expect(new Set(seen)).toEqual(new Set(['VALID']));
      expect(released).toMatchObject({ status: 'RELEASED', releasedHwids: ['HW-SEAT'], selfReleasesLeft: 4 });
      expect((await t.admin('GET', `/licenses/${seatLicense.id}`)).json.usedHwids).toEqual([]);
    }, 120_000);
  });
}

// The rotation drill with the real programs: a copy pinned to the old key set stays VALID
// through create-next and activate, until the old key is deleted; then UNVERIFIED, or
// VALID_OFFLINE on its cache within the grace period.
for (const client of CLIENTS) {
  describe.each(DIALECTS)(`${client.name} client CLI through a key rotation (%s)`, (dialect) => {
    let t: TestApp;
    let dir: string;
    beforeAll(async () => {
      t = await startTestApp(dialect, { VALIDATION_RATE_LIMIT: '100000' });
      dir = mkdtempSync(join(tmpdir(), `license-client-rotation-${client.name}-`));
    });
    afterAll(async () => {
      await t?.close();
      rmSync(dir, { recursive: true, force: true });
    });

    it('a copy pinned to the old set: VALID through create-next and activate; after deletion UNVERIFIED, VALID_OFFLINE within grace; a copy pinned to both: VALID throughout', async () => {
      const license = await newLicense(t);
      const oldKeys = join(dir, 'old.json');
      writeFileSync(oldKeys, (await t.req('GET', '/.well-known/jwks.json')).text);
      const oldKid = (JSON.parse(readFileSync(oldKeys, 'utf8')) as { keys: { kid: string }[] }).keys[0]!.kid;
      const check = (keys: string, cache: string, grace = '72') =>
        runCli(client.command, ['validate', '--url', t.baseUrl, '--license', license.id, '--product', license.productId, '--hwid', 'HW', '--keys', keys, '--cache', cache, '--grace-hours', grace]);
      const oldCache = join(dir, 'old-cache.json');
      const bothCache = join(dir, 'both-cache.json');
      expect((await check(oldKeys, oldCache)).line).toBe('VALID');

      const next = await t.admin('POST', '/admin/signing-keys');
      const bothKeys = join(dir, 'both.json');
      writeFileSync(bothKeys, (await t.req('GET', '/.well-known/jwks.json')).text); // the release that ships the new set
      expect((await check(oldKeys, oldCache)).line).toBe('VALID');
      expect((await check(bothKeys, bothCache)).line).toBe('VALID');

      expect((await t.admin('POST', `/admin/signing-keys/${next.json.kid}/activate`)).status).toBe(200);
      expect((await check(oldKeys, oldCache)).line).toBe('VALID');
      expect((await check(bothKeys, bothCache)).line).toBe('VALID');

      expect((await t.admin('DELETE', `/admin/signing-keys/${oldKid}`)).status).toBe(204);
      expect(await check(oldKeys, join(dir, 'no-cache.json'))).toMatchObject({ code: 1, stdout: 'INVALID UNVERIFIED' });
      expect(await check(oldKeys, oldCache)).toMatchObject({ code: 0, line: 'VALID_OFFLINE' });
      expect((await check(oldKeys, oldCache, '0')).stdout).toBe('INVALID UNVERIFIED');
      expect((await check(bothKeys, bothCache)).line).toBe('VALID');
    });
  });
}
