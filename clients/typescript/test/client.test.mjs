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
import { LicenseClient, PinnedKeys, machineId } from '../dist/index.js';

const b64 = (value) => Buffer.from(typeof value === 'string' ? value : JSON.stringify(value)).toString('base64url');

/** An Ed25519 key as the service publishes it, and a signer for receipts. */
function signingKey() {
  const { publicKey, privateKey } = generateKeyPairSync('ed25519');
  const { x } = publicKey.export({ format: 'jwk' });
  const kid = createHash('sha256').update(JSON.stringify({ crv: 'Ed25519', kty: 'OKP', x })).digest('base64url');
  const jws = (payload) => {
    const head = b64({ alg: 'EdDSA', kid, typ: 'validation-receipt' });
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
