// The Java library itself (not its command line): validateAsync completes off the calling
// thread with the blocking call's result, the cache is written 0600, and a cache that
// cannot be written is logged through System.Logger while the answer stays VALID.
import { execFile } from 'node:child_process';
import { createHash, generateKeyPairSync, sign } from 'node:crypto';
import { deflateRawSync } from 'node:zlib';
import { createServer } from 'node:http';
import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newLicense } from '../helpers/fixtures.js';
import { storedZip } from '../helpers/releases.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

const run = promisify(execFile);
const JAR = 'clients/java/build/license-client.jar';
const CHECK = 'test/clients/java/LibraryCheck.java';
const TERMS_CHECK = 'test/clients/java/TermsCheck.java';
const UPDATE_CHECK = 'test/clients/java/UpdateLibraryCheck.java';

describe('Java library', () => {
  let t: TestApp;
  let dir: string;
  let keys: string;
  beforeAll(async () => {
    t = await startTestApp('sqlite', { VALIDATION_RATE_LIMIT: '100000' });
    dir = mkdtempSync(join(tmpdir(), 'java-library-'));
    keys = join(dir, 'jwks.json');
    writeFileSync(keys, (await t.req('GET', '/.well-known/jwks.json')).text);
  });
  afterAll(async () => {
    await t?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const check = async (cache: string) => {
    const license = await newLicense(t);
    return run('java', ['-cp', JAR, CHECK, t.baseUrl, license.id, license.productId, keys, cache], { timeout: 60_000 });
  };

  it('validateAsync returns at once and completes on another thread with what validate answers; the cache is 0600', async () => {
    const cache = join(dir, 'cache', 'license.json');
    const { stdout, stderr } = await check(cache);
    expect(stdout.trim().split('\n')).toEqual(['returned-before-answer true', 'completed-on-caller-thread false', 'async VALID', 'blocking VALID']);
    expect(stderr).toBe('');
    expect(statSync(cache).mode & 0o777).toBe(0o600);
  });

  it('logs a cache it cannot write and still answers VALID', async () => {
    const blocked = join(dir, 'a-directory');
    mkdirSync(blocked);
    const { stdout, stderr } = await check(blocked);
    expect(stdout).toContain('async VALID');
    expect(stdout).toContain('blocking VALID');
    expect(stderr).toMatch(/WARNING: cannot write license cache .*a-directory; offline grace unavailable/);
  });
});

// The policy fields (DECISIONS.md "License policies") in receipts signed by a key of the
// test's own: features and feature(code) online and offline, grace, a revealed reason, an
// older receipt, keepAlive's interval, rounds and release on stop.
describe('Java library: signed license terms', () => {
  it('reads features, grace, reason and slot timeout; keeps a seat alive and frees it on stop', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'java-terms-'));
    const { publicKey, privateKey } = generateKeyPairSync('ed25519');
    const { x } = publicKey.export({ format: 'jwk' }) as { x: string };
    const keys = join(dir, 'jwks.json');
    writeFileSync(keys, JSON.stringify({ keys: [{ kty: 'OKP', crv: 'Ed25519', x, kid: 'terms', alg: 'EdDSA', use: 'sig' }] }));
    const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');
    const graceEnd = Date.UTC(2031, 0, 2, 3, 4, 5, 6);
    const byHwid: Record<string, { valid: boolean; extra: Record<string, unknown> }> = {
      features: { valid: true, extra: { expiresAtEpochMillis: Date.now() + 86_400_000, graceEndsAtEpochMillis: null, features: { pro: true, seats: 5, tier: 'gold' }, slotTimeoutMinutes: 30, reason: 'VALID' } },
      grace: { valid: true, extra: { expiresAtEpochMillis: Date.now() - 1000, graceEndsAtEpochMillis: graceEnd, features: {}, slotTimeoutMinutes: null, reason: 'GRACE' } },
      rejected: { valid: false, extra: { reason: 'HWID_LIMIT_REACHED' } },
      old: { valid: true, extra: {} },
      seat: { valid: true, extra: { slotTimeoutMinutes: 60 } },
    };
    const releases: unknown[] = [];
    const server = createServer((req, res) => {
      let text = '';
      req.on('data', (c: Buffer) => (text += c.toString()));
      req.on('end', () => {
        const body = JSON.parse(text) as Record<string, string>;
        if (req.url === '/licenses/release') {
          releases.push(body);
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ releasedIps: [], releasedHwids: [body.hwid], selfReleasesLeft: 1 }));
          return;
        }
        const { valid, extra } = byHwid[body.hwid!]!;
        const input = `${b64({ alg: 'EdDSA', kid: 'terms', typ: 'validation-receipt' })}.${b64({ ...body, ip: '127.0.0.1', valid, timestampEpochMillis: Date.now(), ...extra })}`;
        res.writeHead(200, { 'content-type': 'application/json', 'validation-receipt': `${input}.${sign(null, Buffer.from(input), privateKey).toString('base64url')}` });
        res.end(JSON.stringify({ valid }));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const address = server.address();
    const url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
    try {
      const { stdout, stderr } = await run('java', ['-cp', JAR, TERMS_CHECK, url, keys, join(dir, 'cache.json')], { timeout: 90_000 });
      expect(stderr).toBe('');
      const lines = stdout.trim().split('\n');
      expect(lines.slice(0, 10)).toEqual([
        'before {}',
        'validate VALID',
        'features {pro=true, seats=5, tier=gold}',
        'seats 5 pro true missing false',
        'slot 30 expires true grace false reason VALID',
        'interval 600000',
        'offline VALID_OFFLINE pro true tier gold',
        'grace VALID GRACE 2031-01-02T03:04:05.006Z',
        'rejected INVALID REJECTED HWID_LIMIT_REACHED serverReason HWID_LIMIT_REACHED pro false',
        'old VALID features {} slot false',
      ]);
      const rounds = /^keepAlive rounds (\d+) after-stop 0 first VALID@license-keep-alive$/.exec(lines[10]!);
      expect(rounds, lines[10]).not.toBeNull();
      expect(Number(rounds![1])).toBeGreaterThanOrEqual(2);
      expect(Number(rounds![1])).toBeLessThanOrEqual(5); // a second apart at least: not hammering
      expect(lines[11]).toBe('stop RELEASED; 1 self-release left in the rolling 30 days');
      expect(releases).toEqual([{ licenseId: 'L', productId: 'P', hwid: 'seat' }]);
    } finally {
      server.close();
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});

// Updates (DECISIONS.md "Releases"): the signed check, the download's outcomes by the fake
// service's answer (chosen by the hwid): the release's own bytes, a jar stamped for this download
// whose signed entry is deflated, one stamped for another license, a refusal with its reason, a
// release archived since, and a download that stalls (cut after the 500 ms timeout).
describe('Java library: checkForUpdate and downloadUpdate', () => {
  it('downloads what the signed check named, checks stamped jars by their entry, and cuts a stalled download', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'java-updates-'));
    const { publicKey, privateKey } = generateKeyPairSync('ed25519');
    const { x } = publicKey.export({ format: 'jwk' }) as { x: string };
    const keys = join(dir, 'jwks.json');
    writeFileSync(keys, JSON.stringify({ keys: [{ kty: 'OKP', crv: 'Ed25519', x, kid: 'updates', alg: 'EdDSA', use: 'sig' }] }));
    const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');
    const jws = (payload: unknown, typ: string) => {
      const input = `${b64({ alg: 'EdDSA', kid: 'updates', typ })}.${b64(payload)}`;
      return `${input}.${sign(null, Buffer.from(input), privateKey).toString('base64url')}`;
    };
    const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
    const file = Buffer.from('release 2.0.0');
    const latest = { version: '2.0.0', sha256: sha256(file), size: file.length, publishedAtEpochMillis: 1_700_000_000_000 };
    /** A jar with the signed entry deflated (stored zips are the helper's; the entry is patched to method 8). */
    const stampedJar = (licenseId: string) => {
      const entry = jws({ downloadId: 'D-1', licenseId, releaseId: 'R', sha256: latest.sha256, iatEpochMillis: Date.now() }, 'download');
      return deflatedZip('META-INF/LICENSING-DOWNLOAD.jws', Buffer.from(entry));
    };
    const downloads: Record<string, unknown>[] = [];
    const server = createServer((req, res) => {
      let text = '';
      req.on('data', (c: Buffer) => (text += c.toString()));
      req.on('end', () => {
        const body = JSON.parse(text) as Record<string, string>;
        if (req.url === '/releases/latest') {
          const signed = { licenseId: body.licenseId, productId: body.productId, hwid: body.hwid, nonce: body.nonce, valid: true, latest, timestampEpochMillis: Date.now() };
          res.writeHead(200, { 'content-type': 'application/json', 'validation-receipt': jws(signed, 'release-check') });
          return res.end(JSON.stringify({ valid: true, latest, current: { status: 'deprecated' }, update: true }));
        }
        downloads.push(body);
        const send = (bytes: Buffer) => {
          res.writeHead(200, { 'content-type': 'application/java-archive', 'x-release-version': '2.0.0', 'x-release-sha256': sha256(bytes), 'x-download-id': 'D-1' });
          res.end(bytes);
        };
        if (body.hwid === 'plain') return send(file);
        if (body.hwid === 'stamped-deflated') return send(stampedJar('L'));
        if (body.hwid === 'stamped-other-license') return send(stampedJar('L2'));
        if (body.hwid === 'refused') {
          res.writeHead(403, { 'content-type': 'application/json' });
          return res.end(JSON.stringify({ valid: false, reason: 'RELEASE_NOT_ALLOWED' }));
        }
        if (body.hwid === 'gone') {
          res.writeHead(404, { 'content-type': 'application/json' });
          return res.end(JSON.stringify({ error: 'Release not found' }));
        }
        res.writeHead(200, { 'content-type': 'application/octet-stream', 'x-release-version': '2.0.0', 'x-release-sha256': latest.sha256, 'content-length': String(file.length) });
        res.write(file.subarray(0, 4)); // and then nothing
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const address = server.address();
    const url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
    try {
      const { stdout, stderr } = await run('java', ['-cp', JAR, UPDATE_CHECK, url, keys, dir], { timeout: 90_000 });
      expect(stderr).toBe('');
      const check = `UPDATE 2.0.0 ${latest.sha256} update=true current=deprecated`;
      expect(stdout.trim().split('\n')).toEqual([
        'no-check downloadUpdate needs a checkForUpdate first',
        `plain ${check} | DOWNLOADED null null stamped=false written=true left=1`,
        `stamped-deflated ${check} | DOWNLOADED null null stamped=true written=true left=1`,
        `stamped-other-license ${check} | INVALID UNVERIFIED null stamped=false written=false left=0`,
        `refused ${check} | INVALID REJECTED RELEASE_NOT_ALLOWED stamped=false written=false left=0`,
        `gone ${check} | INVALID NOT_FOUND null stamped=false written=false left=0`,
        `stall ${check} | INVALID UNREACHABLE null stamped=false written=false left=0 within-2s=true`,
        'up-to-date UP_TO_DATE 2.0.0',
      ]);
      expect(downloads[0]).toEqual({ licenseId: 'L', productId: 'P', hwid: 'plain', version: '2.0.0', channel: 'beta' });
    } finally {
      server.closeAllConnections();
      server.close();
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});

/** A zip of one deflated entry (what `jar` writes by default), beside a stored plugin.yml. */
function deflatedZip(name: string, data: Buffer): Buffer {
  const zip = storedZip({ 'plugin.yml': 'main: a.B\n', [name]: data });
  const compressed = deflateRawSync(data);
  // Rebuild: the stored zip's layout, with the second entry's data compressed and its sizes and method patched.
  const firstLocal = 30 + 'plugin.yml'.length + 'main: a.B\n'.length;
  const local = Buffer.from(zip.subarray(firstLocal, firstLocal + 30));
  local.writeUInt16LE(8, 8);
  local.writeUInt32LE(compressed.length, 18);
  const nameBytes = Buffer.from(name);
  const directoryAt = zip.readUInt32LE(zip.length - 6);
  const directory = Buffer.from(zip.subarray(directoryAt, zip.length - 22));
  const second = 46 + 'plugin.yml'.length;
  directory.writeUInt16LE(8, second + 10);
  directory.writeUInt32LE(compressed.length, second + 20);
  const end = Buffer.from(zip.subarray(zip.length - 22));
  const newDirectoryAt = firstLocal + 30 + nameBytes.length + compressed.length;
  end.writeUInt32LE(newDirectoryAt, 16);
  return Buffer.concat([zip.subarray(0, firstLocal), local, nameBytes, compressed, directory, end]);
}
