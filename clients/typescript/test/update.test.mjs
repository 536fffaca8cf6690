// checkForUpdate() and downloadUpdate() on their own (node --test, no other dependency), against
// a service of the test's own: the signed check repeating the request, the sha256 checked while
// streaming, a stamped jar accepted by its signed entry (stored or deflated), a stalled download
// cut by the timeout, refusals, and the target written atomically or not at all.
import assert from 'node:assert/strict';
import { createHash, generateKeyPairSync, sign } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, beforeEach, describe, it } from 'node:test';
import { crc32, deflateRawSync } from 'node:zlib';
import { LicenseClient } from '../dist/index.js';

const b64 = (value) => Buffer.from(JSON.stringify(value)).toString('base64url');
const sha256 = (bytes) => createHash('sha256').update(bytes).digest('hex');

function signingKey(kid) {
  const { publicKey, privateKey } = generateKeyPairSync('ed25519');
  const { x } = publicKey.export({ format: 'jwk' });
  const jws = (payload, typ) => {
    const input = `${b64({ alg: 'EdDSA', kid, typ })}.${b64(payload)}`;
    return `${input}.${sign(null, Buffer.from(input), privateKey).toString('base64url')}`;
  };
  return { jwk: { kty: 'OKP', crv: 'Ed25519', x, kid }, jws };
}

/** A zip of the entries; `deflate` names the ones to compress (as `jar` does by default). */
function zip(entries, deflate = []) {
  const locals = [];
  const centrals = [];
  let offset = 0;
  for (const [name, content] of Object.entries(entries)) {
    const data = Buffer.from(content);
    const stored = deflate.includes(name) ? deflateRawSync(data) : data;
    const method = deflate.includes(name) ? 8 : 0;
    const nameBytes = Buffer.from(name);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(method, 8);
    local.writeUInt32LE(crc32(data), 14);
    local.writeUInt32LE(stored.length, 18);
    local.writeUInt32LE(data.length, 22);
    local.writeUInt16LE(nameBytes.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(method, 10);
    central.writeUInt32LE(crc32(data), 16);
    central.writeUInt32LE(stored.length, 20);
    central.writeUInt32LE(data.length, 24);
    central.writeUInt16LE(nameBytes.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, nameBytes, stored);
    centrals.push(central, nameBytes);
    offset += 30 + nameBytes.length + stored.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(Object.keys(entries).length, 8);
  end.writeUInt16LE(Object.keys(entries).length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

describe('checkForUpdate and downloadUpdate against a service of the test own', () => {
  const key = signingKey('k1');
  const other = signingKey('k2');
  const file = Buffer.from('the release file, version 2.0.0');
  const latest = { version: '2.0.0', sha256: sha256(file), size: file.length, publishedAtEpochMillis: 1_700_000_000_000 };
  const dir = mkdtempSync(join(tmpdir(), 'license-client-update-'));
  let server;
  let url;
  /** How the fake answers, per test: the check's (signed payload edits, status) and the download's. */
  let answer;
  const requests = [];

  const defaults = () => ({
    check: (body) => ({ status: 200, body: { valid: true, latest, current: { status: 'published' }, update: true }, signed: { ...body, hwid: body.hwid ?? null, valid: true, latest, timestampEpochMillis: Date.now() }, signer: key }),
    download: () => ({ status: 200, headers: { 'x-release-version': latest.version, 'x-release-sha256': latest.sha256, 'x-download-id': 'D-1' }, bytes: file }),
  });

  before(async () => {
    server = createServer((req, res) => {
      let text = '';
      req.on('data', (c) => (text += c));
      req.on('end', () => {
        const body = JSON.parse(text);
        requests.push({ path: req.url, body });
        if (req.url === '/releases/latest') {
          const a = answer.check(body);
          const headers = { 'content-type': 'application/json' };
          if (a.signed) headers['validation-receipt'] = a.signer.jws(a.signed, a.typ ?? 'release-check');
          res.writeHead(a.status, headers);
          return res.end(JSON.stringify(a.body));
        }
        const a = answer.download(body);
        if (a.stall) {
          res.writeHead(200, a.headers);
          res.write(a.bytes.subarray(0, 5)); // then nothing more
          return;
        }
        res.writeHead(a.status, { 'content-type': a.json ? 'application/json' : 'application/octet-stream', ...a.headers });
        res.end(a.json ? JSON.stringify(a.json) : a.bytes);
      });
    });
    await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${server.address().port}`;
  });
  after(() => {
    server.closeAllConnections();
    server.close();
    rmSync(dir, { recursive: true, force: true });
  });
  beforeEach(() => {
    answer = defaults();
    requests.length = 0;
  });

  let n = 0;
  const target = () => join(dir, String((n += 1)), 'update', 'plugin.jar');
  const client = (timeoutMs = 5_000) => new LicenseClient({ url, jwks: { keys: [key.jwk] }, timeoutMs });
  const request = { licenseId: 'L', productId: 'P', hwid: 'H', version: '1.0.0' };

  it('checks with a fresh nonce and the pinned kids, and answers from the signed payload', async () => {
    const c = client();
    const check = await c.checkForUpdate(request);
    assert.deepEqual(check, { valid: true, latest, current: { status: 'published' }, update: true, request });
    assert.match(requests[0].body.nonce, /^[\w-]{43}$/);
    await c.checkForUpdate(request);
    assert.notEqual(requests[1].body.nonce, requests[0].body.nonce);
    assert.equal((await c.checkForUpdate({ ...request, version: '2.0.0' })).update, false);
    // the signed latest wins over the body's
    answer.check = (body) => ({ ...defaults().check(body), body: { valid: true, latest: { ...latest, version: '9.9.9' }, current: null, update: true } });
    assert.equal((await c.checkForUpdate(request)).latest.version, '2.0.0');
  });

  it('is UNVERIFIED unless a pinned key signed a release-check repeating this request, nonce and validity', async () => {
    const c = client();
    const edits = [
      (a) => ({ ...a, signed: null }),
      (a) => ({ ...a, signer: other }),
      (a) => ({ ...a, typ: 'validation-receipt' }),
      (a) => ({ ...a, signed: { ...a.signed, nonce: 'another-nonce-1234567890' } }),
      (a) => ({ ...a, signed: { ...a.signed, hwid: 'another machine' } }),
      (a) => ({ ...a, signed: { ...a.signed, licenseId: 'L2' } }),
      (a) => ({ ...a, signed: { ...a.signed, productId: 'P2' } }),
      (a) => ({ ...a, signed: { ...a.signed, timestampEpochMillis: 'now' } }),
      (a) => ({ ...a, signed: { ...a.signed, latest: { ...latest, sha256: 'ABC' } } }),
      (a) => ({ ...a, body: { ...a.body, valid: false } }),
    ];
    for (const edit of edits) {
      answer.check = (body) => edit(defaults().check(body));
      assert.deepEqual(await c.checkForUpdate(request), { valid: false, latest: null, current: null, update: false, reason: 'UNVERIFIED' }, edit.toString());
    }
    // downloadUpdate then downloads nothing
    assert.deepEqual(await c.downloadUpdate(target()), { status: 'INVALID', reason: 'UNVERIFIED' });
    assert.equal(requests.filter((r) => r.path === '/releases/download').length, 0);
  });

  it('a genuine refusal is REJECTED; a 429 RATE_LIMITED with its wait; no answer UNREACHABLE', async () => {
    const c = client();
    answer.check = (body) => ({ status: 200, body: { valid: false, latest: null, current: null, update: false }, signed: { ...body, valid: false, latest: null, timestampEpochMillis: Date.now() }, signer: key });
    assert.equal((await c.checkForUpdate(request)).reason, 'REJECTED');
    answer.check = () => ({ status: 429, body: { error: 'slow down' } });
    assert.deepEqual(await c.checkForUpdate(request), { valid: false, latest: null, current: null, update: false, reason: 'RATE_LIMITED', retryAfterSeconds: 60 });
    const unreachable = new LicenseClient({ url: 'http://127.0.0.1:9', jwks: { keys: [key.jwk] } });
    assert.equal((await unreachable.checkForUpdate(request)).reason, 'UNREACHABLE');
  });

  it('downloads the checked version into place, atomically, and replaces what was there', async () => {
    const c = client();
    await assert.rejects(c.downloadUpdate(target()), /checkForUpdate first/);
    await c.checkForUpdate({ ...request, channel: 'beta' });
    const path = target();
    const result = await c.downloadUpdate(path);
    assert.deepEqual(result, { status: 'DOWNLOADED', version: '2.0.0', path, sha256: latest.sha256, size: file.length, releaseSha256: latest.sha256, stamped: false, downloadId: 'D-1' });
    assert.deepEqual(requests.at(-1).body, { licenseId: 'L', productId: 'P', hwid: 'H', version: '2.0.0', channel: 'beta' });
    assert.deepEqual(readFileSync(path), file);
    writeFileSync(path, 'old');
    assert.equal((await c.downloadUpdate(path)).status, 'DOWNLOADED');
    assert.deepEqual(readFileSync(path), file);
    assert.deepEqual(readdirSync(join(path, '..')), ['plugin.jar']);
    // The file system's errors reject (the caller's folder, not the service): a file where the folder should be, a folder at the path.
    await assert.rejects(c.downloadUpdate(join(path, 'below-a-file.jar')), /EEXIST|ENOTDIR/);
    const folder = join(dir, 'a-folder');
    mkdirSync(join(folder, 'inside'), { recursive: true });
    await assert.rejects(c.downloadUpdate(folder), /EISDIR|ENOTEMPTY|EEXIST/);
    assert.deepEqual(readdirSync(dir).filter((name) => name.endsWith('.part')), []);
  });

  it('writes nothing when the bytes are not X-Release-Sha256, not the signed release, or another version', async () => {
    const c = client();
    await c.checkForUpdate(request);
    const forged = Buffer.from('forged');
    const cases = [
      { ...defaults().download(), bytes: forged }, // the header says the genuine sha256
      { ...defaults().download(), bytes: forged, headers: { ...defaults().download().headers, 'x-release-sha256': sha256(forged) } }, // not the signed release, no entry
      { ...defaults().download(), headers: { ...defaults().download().headers, 'x-release-version': '1.9.0' } },
      { ...defaults().download(), headers: { 'x-release-version': '2.0.0' } },
    ];
    for (const a of cases) {
      answer.download = () => a;
      const path = target();
      assert.deepEqual(await c.downloadUpdate(path), { status: 'INVALID', reason: 'UNVERIFIED' });
      assert.equal(existsSync(path), false);
      assert.deepEqual(existsSync(join(path, '..')) ? readdirSync(join(path, '..')) : [], []);
    }
  });

  it('accepts a stamped jar by its signed entry (stored or deflated) naming this license, the download and the release file', async () => {
    const c = client();
    await c.checkForUpdate(request);
    const entry = (over = {}, signer = key, typ = 'download') =>
      signer.jws({ downloadId: 'D-1', licenseId: 'L', releaseId: 'R', sha256: latest.sha256, iatEpochMillis: Date.now(), ...over }, typ);
    const serve = (jar) => (answer.download = () => ({ status: 200, headers: { 'x-release-version': '2.0.0', 'x-release-sha256': sha256(jar), 'x-download-id': 'D-1' }, bytes: jar }));
    for (const deflate of [[], ['META-INF/LICENSING-DOWNLOAD.jws']]) {
      const jar = zip({ 'plugin.yml': 'main: a.B\n', 'META-INF/LICENSING-DOWNLOAD.jws': entry() }, deflate);
      serve(jar);
      const path = target();
      assert.deepEqual(await c.downloadUpdate(path), { status: 'DOWNLOADED', version: '2.0.0', path, sha256: sha256(jar), size: jar.length, releaseSha256: latest.sha256, stamped: true, downloadId: 'D-1' });
    }
    for (const bad of [entry({ licenseId: 'L2' }), entry({ sha256: sha256(Buffer.from('x')) }), entry({ downloadId: 'D-2' }), entry({}, other), entry({}, key, 'release-check')]) {
      serve(zip({ 'META-INF/LICENSING-DOWNLOAD.jws': bad }));
      const path = target();
      assert.deepEqual(await c.downloadUpdate(path), { status: 'INVALID', reason: 'UNVERIFIED' });
      assert.equal(existsSync(path), false);
    }
    serve(Buffer.from('not a zip at all'));
    assert.equal((await c.downloadUpdate(target())).reason, 'UNVERIFIED');
  });

  it('gives the service refusal and its reason (403), NOT_FOUND (404), RATE_LIMITED (429), NO_RELEASE without one', async () => {
    const c = client();
    await c.checkForUpdate(request);
    answer.download = () => ({ status: 403, json: { valid: false, reason: 'RELEASE_NOT_ALLOWED' } });
    assert.deepEqual(await c.downloadUpdate(target()), { status: 'INVALID', reason: 'REJECTED', serverReason: 'RELEASE_NOT_ALLOWED' });
    answer.download = () => ({ status: 403, json: { valid: false, reason: 'two\nlines' } });
    assert.deepEqual(await c.downloadUpdate(target()), { status: 'INVALID', reason: 'REJECTED' });
    answer.download = () => ({ status: 404, json: { error: 'Release not found' } });
    assert.deepEqual(await c.downloadUpdate(target()), { status: 'INVALID', reason: 'NOT_FOUND' });
    answer.download = () => ({ status: 429, json: { error: 'slow' }, headers: { 'retry-after': '7' } });
    assert.deepEqual(await c.downloadUpdate(target()), { status: 'INVALID', reason: 'RATE_LIMITED', retryAfterSeconds: 7 });
    answer.check = (body) => ({ ...defaults().check(body), signed: { ...body, valid: true, latest: null, timestampEpochMillis: Date.now() } });
    const none = await c.checkForUpdate(request);
    assert.equal(none.update, false);
    assert.deepEqual(await c.downloadUpdate(target(), { check: none }), { status: 'INVALID', reason: 'NO_RELEASE' });
  });

  it('a download that stalls is cut after the timeout without new bytes: UNREACHABLE, nothing written', async () => {
    const c = client(300);
    await c.checkForUpdate(request);
    answer.download = () => ({ ...defaults().download(), stall: true });
    const path = target();
    assert.deepEqual(await c.downloadUpdate(path), { status: 'INVALID', reason: 'UNREACHABLE' });
    assert.deepEqual(readdirSync(join(path, '..')), []);
  });
});
