// The package on its own (node --test, no other dependency): receipts checked against the
// pinned keys, the kids sent in Receipt-Key-Ids, the cache written 0600 and atomically, a
// cache that cannot be written never turning VALID into an exception, strict base64url.
import assert from 'node:assert/strict';
import { createHash, generateKeyPairSync, sign } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { LicenseClient, PinnedKeys, machineId, releaseMachine, verifyLicenseFile } from '../dist/index.js';
import { describeRelease } from '../dist/release.js'; // the CLI's line

const b64 = (value) => Buffer.from(typeof value === 'string' ? value : JSON.stringify(value)).toString('base64url');

/** An Ed25519 key as the service publishes it, and a signer for receipts. */
function signingKey() {
  const { publicKey, privateKey } = generateKeyPairSync('ed25519');
  const { x } = publicKey.export({ format: 'jwk' });
  const kid = createHash('sha256').update(JSON.stringify({ crv: 'Ed25519', kty: 'OKP', x })).digest('base64url');
  const jws = (payload, typ = 'validation-receipt') => {
    const head = b64({ alg: 'EdDSA', kid, typ });
    const body = b64(payload);
    return `${head}.${body}.${sign(null, Buffer.from(`${head}.${body}`), privateKey).toString('base64url')}`;
  };
  return { jwk: { kty: 'OKP', crv: 'Ed25519', x, kid, alg: 'EdDSA', use: 'sig' }, kid, jws };
}

describe('LicenseClient against a service of the test own', () => {
  const key = signingKey();
  const other = signingKey();
  let server;
  let url;
  const seen = [];
  const dir = mkdtempSync(join(tmpdir(), 'license-client-pkg-'));

  before(async () => {
    server = createServer((req, res) => {
      let text = '';
      req.on('data', (c) => (text += c));
      req.on('end', () => {
        const body = JSON.parse(text);
        seen.push({ kids: req.headers['receipt-key-ids'], body });
        const receipt = key.jws({ ...body, ip: '127.0.0.1', valid: true, timestampEpochMillis: Date.now() });
        res.writeHead(200, { 'content-type': 'application/json', 'validation-receipt': receipt });
        res.end(JSON.stringify({ valid: true }));
      });
    });
    await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${server.address().port}`;
  });
  after(() => {
    server.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const request = { licenseId: 'L', productId: 'P', hwid: 'H' };

  it('sends the pinned kids and accepts a receipt signed by a pinned key', async () => {
    const client = new LicenseClient({ url, jwks: { keys: [key.jwk, other.jwk] } });
    assert.equal((await client.validate(request)).status, 'VALID');
    assert.equal(seen.at(-1).kids, `${key.kid}, ${other.kid}`);
  });

  it('writes the cache 0600, atomically (no temporary file left), and replaces it whole', async () => {
    const cacheFile = join(dir, 'cache', 'license.json');
    const client = new LicenseClient({ url, jwks: { keys: [key.jwk] }, cacheFile });
    for (let i = 0; i < 3; i++) assert.equal((await client.validate(request)).status, 'VALID');
    assert.equal(statSync(cacheFile).mode & 0o777, 0o600);
    assert.deepEqual(readdirSync(join(dir, 'cache')), ['license.json']);
    assert.match(JSON.parse(readFileSync(cacheFile, 'utf8')).receipt, /^[\w-]+\.[\w-]+\.[\w-]+$/);
  });

  it('stays VALID when the cache cannot be written, and tells the logger', async () => {
    const locked = join(dir, 'locked');
    mkdirSync(locked);
    chmodSync(locked, 0o500);
    const warnings = [];
    const client = new LicenseClient({ url, jwks: { keys: [key.jwk] }, cacheFile: join(locked, 'cache.json'), logger: { warn: (m) => warnings.push(m) } });
    try {
      const result = await client.validate(request);
      assert.equal(result.status, 'VALID');
      if (process.getuid?.() !== 0) {
        assert.equal(warnings.length, 1); // root writes anywhere: the directory cannot stop it
        assert.match(warnings[0], /cannot write license cache/);
      }
      // a cache path that is a directory fails for root too
      const dirAsFile = join(dir, 'is-a-directory');
      mkdirSync(dirAsFile);
      const blocked = new LicenseClient({ url, jwks: { keys: [key.jwk] }, cacheFile: dirAsFile, logger: { warn: (m) => warnings.push(m) } });
      assert.equal((await blocked.validate(request)).status, 'VALID');
      assert.match(warnings.at(-1), /cannot write license cache/);
      assert.ok(existsSync(dirAsFile));
    } finally {
      chmodSync(locked, 0o700);
    }
  });
});

describe('strict base64url', () => {
  it('refuses a receipt whose signature has a non-canonical last character', () => {
    const key = signingKey();
    const keys = new PinnedKeys({ keys: [key.jwk] });
    const jws = key.jws({ hello: 'world' });
    assert.deepEqual(keys.verify(jws, 'validation-receipt'), { hello: 'world' });
    // 64 signature bytes: 86 characters, the last carrying 4 unused bits. Setting one decodes to the same bytes.
    const signature = jws.split('.')[2];
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    const last = alphabet.indexOf(signature.at(-1));
    const twin = `${signature.slice(0, -1)}${alphabet[last | 1]}`;
    assert.notEqual(twin, signature);
    assert.deepEqual(Buffer.from(twin, 'base64url'), Buffer.from(signature, 'base64url'));
    const forged = `${jws.split('.').slice(0, 2).join('.')}.${twin}`;
    assert.equal(keys.verify(forged, 'validation-receipt'), null);
    assert.equal(keys.verify(`${jws}=`, 'validation-receipt'), null);
    assert.equal(keys.verify(jws.replace('.', '.\n'), 'validation-receipt'), null);
  });
});

describe('machineId', () => {
  it('keeps one id per file, 0600, agreed by racing first calls; LICENSE_MACHINE_ID overrides', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'machine-id-'));
    try {
      const file = join(dir, 'sub', 'machine-id');
      const ids = await Promise.all(Array.from({ length: 8 }, () => machineId(file, {})));
      assert.equal(new Set(ids).size, 1);
      assert.equal(await machineId(file, {}), ids[0]);
      assert.equal(statSync(file).mode & 0o777, 0o600);
      assert.deepEqual(readdirSync(join(dir, 'sub')), ['machine-id']);
      assert.equal(await machineId(file, { LICENSE_MACHINE_ID: ' panel-7 ' }), 'panel-7');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

// License policies (DECISIONS.md "License policies"): the signed fields a service that knows
// them adds to receipts and license files, read by the client; older receipts still verify.
describe('signed license terms', () => {
  const key = signingKey();
  const jwks = { keys: [key.jwk] };
  const request = { licenseId: 'L', productId: 'P', hwid: 'H' };
  const dir = mkdtempSync(join(tmpdir(), 'license-client-terms-'));
  let server;
  let url;
  /** What the next validate answer adds to its receipt (and whether it is valid). */
  let answer = { valid: true, extra: {} };
  const calls = [];

  before(async () => {
    server = createServer((req, res) => {
      let text = '';
      req.on('data', (c) => (text += c));
      req.on('end', () => {
        const body = JSON.parse(text);
        calls.push({ path: req.url, at: Date.now(), body });
        if (req.url === '/licenses/release') {
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ releasedIps: [], releasedHwids: [body.hwid], selfReleasesLeft: 2 }));
          return;
        }
        const receipt = key.jws({ ...body, ip: '127.0.0.1', valid: answer.valid, timestampEpochMillis: Date.now(), ...answer.extra });
        res.writeHead(200, { 'content-type': 'application/json', 'validation-receipt': receipt });
        res.end(JSON.stringify({ valid: answer.valid, ...(answer.extra.reason ? { reason: answer.extra.reason } : {}) }));
      });
    });
    await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${server.address().port}`;
  });
  after(() => {
    server.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('exposes features, feature(code), expiry, grace end and slot timeout, online and then offline from the cache', async () => {
    const cacheFile = join(dir, 'features.json');
    const expires = Date.now() + 86_400_000;
    answer = { valid: true, extra: { expiresAtEpochMillis: expires, graceEndsAtEpochMillis: null, features: { pro: true, seats: 5, tier: 'gold' }, slotTimeoutMinutes: 30, reason: 'VALID' } };
    const client = new LicenseClient({ url, jwks, cacheFile });
    assert.deepEqual(client.features, {});
    const result = await client.validate(request);
    assert.equal(result.status, 'VALID');
    assert.deepEqual(result.terms.features, { pro: true, seats: 5, tier: 'gold' });
    assert.equal(result.terms.expiresAtEpochMillis, expires);
    assert.equal(result.terms.graceEndsAtEpochMillis, null);
    assert.equal(result.terms.slotTimeoutMinutes, 30);
    assert.equal(result.terms.reason, 'VALID');
    assert.equal(client.feature('pro'), true);
    assert.equal(client.feature('seats'), 5);
    assert.equal(client.feature('missing'), undefined);
    assert.equal(client.feature('constructor'), undefined); // own keys only

    // A fresh process with the network down: the cached receipt answers the same features.
    const offline = new LicenseClient({ url: 'http://127.0.0.1:1', jwks, cacheFile });
    const started = await offline.validateOffline(request);
    assert.equal(started.status, 'VALID_OFFLINE');
    assert.equal(offline.feature('tier'), 'gold');
    assert.equal((await offline.validate(request)).status, 'VALID_OFFLINE');
    assert.equal(offline.feature('pro'), true);
  });

  it('an older receipt without the fields still verifies: no features, nothing known', async () => {
    answer = { valid: true, extra: {} };
    const client = new LicenseClient({ url, jwks });
    const result = await client.validate(request);
    assert.equal(result.status, 'VALID');
    assert.deepEqual(result.terms.features, {});
    assert.equal(result.terms.expiresAtEpochMillis, null);
    assert.equal(result.terms.slotTimeoutMinutes, null);
    assert.equal(result.terms.reason, null);
  });

  it('a receipt in grace carries its end; a rejection carries the revealed reason and clears the features', async () => {
    const graceEnd = Date.now() + 3 * 86_400_000;
    answer = { valid: true, extra: { expiresAtEpochMillis: Date.now() - 1000, graceEndsAtEpochMillis: graceEnd, features: { pro: true }, reason: 'GRACE' } };
    const cacheFile = join(dir, 'grace.json');
    const client = new LicenseClient({ url, jwks, cacheFile });
    const inGrace = await client.validate(request);
    assert.equal(inGrace.terms.graceEndsAtEpochMillis, graceEnd);
    assert.equal(inGrace.terms.reason, 'GRACE');
    // offline, the cached receipt counts until the grace ends
    assert.equal((await new LicenseClient({ url: 'http://127.0.0.1:1', jwks, cacheFile }).validate(request)).status, 'VALID_OFFLINE');

    answer = { valid: false, extra: { reason: 'HWID_LIMIT_REACHED' } };
    const rejected = await client.validate(request);
    assert.deepEqual(rejected, { status: 'INVALID', reason: 'REJECTED', serverReason: 'HWID_LIMIT_REACHED' });
    assert.equal(client.feature('pro'), undefined);
    answer = { valid: false, extra: { reason: 'NOT A CODE\nVALID' } }; // never printed as a line of its own
    assert.deepEqual(await client.validate(request), { status: 'INVALID', reason: 'REJECTED' });
  });

  it('a cached receipt stops counting offline once its license has expired (and its grace ended)', async () => {
    const cacheFile = join(dir, 'expired.json');
    answer = { valid: true, extra: { expiresAtEpochMillis: Date.now() + 300, graceEndsAtEpochMillis: null } };
    assert.equal((await new LicenseClient({ url, jwks, cacheFile }).validate(request)).status, 'VALID');
    const offline = new LicenseClient({ url: 'http://127.0.0.1:1', jwks, cacheFile });
    assert.equal((await offline.validate(request)).status, 'VALID_OFFLINE');
    await new Promise((resolve) => setTimeout(resolve, 400));
    assert.deepEqual(await offline.validate(request), { status: 'INVALID', reason: 'UNREACHABLE' });
  });

  it('keepAlive validates at least every third of the slot timeout, reports each result, and frees the machine on stop', async () => {
    answer = { valid: true, extra: { slotTimeoutMinutes: 0.05, features: {} } }; // 3 s: a round every second
    const client = new LicenseClient({ url, jwks });
    const results = [];
    const from = calls.length;
    const seat = client.keepAlive({ ...request, hwid: 'seat' }, { onResult: (r) => results.push(r.status) });
    // three rounds within 10 s: the signed 0.05-minute (3 s) slot timeout, not the 1-hour default, sets the pace
    const roundsSoFar = () => calls.slice(from).filter((c) => c.path === '/licenses/validate');
    for (let waited = 0; roundsSoFar().length < 3 && waited < 10_000; waited += 100) await new Promise((resolve) => setTimeout(resolve, 100));
    const released = await seat.stop();
    const rounds = roundsSoFar();
    assert.ok(rounds.length >= 3, `${rounds.length} rounds`);
    assert.ok(rounds[2].at - rounds[1].at >= 900, 'a second apart at least');
    assert.deepEqual(results.slice(0, rounds.length - 1), rounds.slice(0, -1).map(() => 'VALID'));
    assert.deepEqual(calls.at(-1), { path: '/licenses/release', at: calls.at(-1).at, body: { licenseId: 'L', productId: 'P', hwid: 'seat' } });
    assert.equal(released.status, 'RELEASED');
    assert.equal(describeRelease(released), 'RELEASED; 2 self-releases left in the rolling 30 days');
    const after = calls.length;
    await new Promise((resolve) => setTimeout(resolve, 1_200));
    assert.equal(calls.length, after); // nothing after stop
    assert.equal(await seat.stop(), null);
  });

  it('license files: features offline, grace until its end for bound machines only', () => {
    const now = Date.now();
    const file = (extra) =>
      key.jws(
        { licenseId: 'L', productId: 'P', customerId: 'C', maxIps: null, maxHwids: 2, usedIps: [], usedHwids: ['H'], issuedAtEpochMillis: now, validUntilEpochMillis: now + 86_400_000, ...extra },
        'license-file',
      );
    const current = verifyLicenseFile(file({ expiresAtEpochMillis: now + 1000, features: { pro: true } }), { jwks, productId: 'P', hwid: 'H' });
    assert.equal(current.valid, true);
    assert.equal(current.terms.feature('pro'), true);
    assert.equal(current.inGraceUntilEpochMillis, null);
    const grace = file({ expiresAtEpochMillis: now - 1000, graceEndsAtEpochMillis: now + 5000 });
    assert.equal(verifyLicenseFile(grace, { jwks, productId: 'P', hwid: 'H' }).inGraceUntilEpochMillis, now + 5000);
    assert.deepEqual(verifyLicenseFile(grace, { jwks, productId: 'P', hwid: 'other' }), { valid: false, reason: 'HWID_NOT_ALLOWED' });
    assert.deepEqual(verifyLicenseFile(grace, { jwks, productId: 'P', hwid: 'H', now: now + 5000 }), { valid: false, reason: 'EXPIRED' });
    const old = verifyLicenseFile(file({ expiresAtEpochMillis: null }), { jwks, productId: 'P' });
    assert.deepEqual(old.terms.features, {});
  });
});

describe('releaseMachine at the limit', () => {
  it('says which limit, when it frees and how long that is', async () => {
    const server = createServer((req, res) => {
      res.writeHead(429, { 'content-type': 'application/json', 'retry-after': String(30 * 86_400 - 10) });
      res.end(JSON.stringify({ error: 'Self-service release limit reached: 1 per 30 days' }));
    });
    await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const before = Date.now();
      const result = await releaseMachine(`http://127.0.0.1:${server.address().port}`, { licenseId: 'L', productId: 'P', hwid: 'H' });
      assert.equal(result.reason, 'RATE_LIMITED');
      assert.equal(result.retryAfterSeconds, 30 * 86_400 - 10);
      assert.ok(result.retryAtEpochMillis >= before + (30 * 86_400 - 10) * 1000);
      assert.match(describeRelease(result), /^INVALID RATE_LIMITED Self-service release limit reached: 1 per 30 days; try again after \d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z \(in 30 days\)$/);
    } finally {
      server.close();
    }
  });
});

describe('releaseMachine refused (403)', () => {
  it('reads which refusal the 403 is: BLOCKED, NOT_ENABLED, or FORBIDDEN for one it does not know', async () => {
    let answer;
    const server = createServer((req, res) => {
      res.writeHead(403, { 'content-type': 'application/json' });
      res.end(answer);
    });
    await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
    const release = () => releaseMachine(`http://127.0.0.1:${server.address().port}`, { licenseId: 'L', productId: 'P', hwid: 'H' });
    try {
      const cases = [
        [JSON.stringify({ error: 'Blocked' }), 'BLOCKED'],
        [JSON.stringify({ error: 'Self-service release is not enabled for this license' }), 'NOT_ENABLED'],
        [JSON.stringify({ error: 'Forbidden by a proxy' }), 'FORBIDDEN'],
        ['<html>403</html>', 'FORBIDDEN'],
      ];
      for (const [body, reason] of cases) {
        answer = body;
        const result = await release();
        assert.equal(result.reason, reason, body);
        assert.equal(describeRelease(result), `INVALID ${reason}`);
      }
    } finally {
      server.close();
    }
  });
});
