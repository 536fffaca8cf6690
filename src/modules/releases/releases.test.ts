// Releases on both databases: records and their status, files stored in chunks, the
// licensed download decided as validation is, the access window, the update check and
// versions in validation. Non-jar files throughout (jar stamping: releases.stamped.test.ts).
import { createHash, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEntries, createProduct, newLicense, staffWith, validate } from '../../../test/helpers/fixtures.js';
import { useTestClock } from '../../../test/helpers/clock.js';
import { verifyJws } from '../../../test/helpers/jws.js';
import { downloadRelease, newRelease, storedZip, uploadFile } from '../../../test/helpers/releases.js';
import { DIALECTS, startTestApp, type TestApp } from '../../../test/helpers/test-app.js';
import { DAY_MS } from '../../lib/time.js';
import { CHUNK_SIZE } from './release-files.js';

const MAX_BYTES = 2_500_000;
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

describe.each(DIALECTS)('releases (%s)', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(dialect, { RELEASE_MAX_BYTES: String(MAX_BYTES), VALIDATION_RATE_LIMIT: '10000' });
  });
  afterAll(() => t.close());

  const revealing = () => createProduct(t, { revealReasons: true });

  it('creates drafts, refuses a second version in the channel, changes a draft and audits each change', async () => {
    const product = await createProduct(t);
    const created = await t.admin('POST', `/products/${product.id}/releases`, { body: { version: '1.0.0', notes: 'first' } });
    expect(created.status).toBe(201);
    expect(created.json).toMatchObject({ productId: product.id, version: '1.0.0', channel: 'stable', status: 'draft', notes: 'first', publishedAtEpochMillis: null, file: null });
    expect((await t.admin('POST', `/products/${product.id}/releases`, { body: { version: '1.0.0' } })).json).toEqual({ error: 'Version 1.0.0 already exists in channel stable' });
    expect((await t.admin('POST', `/products/${product.id}/releases`, { body: { version: '1.0.0', channel: 'beta' } })).status).toBe(201);
    expect((await t.admin('POST', `/products/${product.id}/releases`, { body: { version: '-1' } })).status).toBe(400);
    expect((await t.admin('POST', `/products/${product.id}/releases`, { body: { version: 'x'.repeat(65) } })).status).toBe(400);
    expect((await t.admin('POST', '/products/nope/releases', { body: { version: '1.0.0' } })).status).toBe(404);
    expect((await t.admin('PATCH', `/releases/${created.json.id}`, { body: { channel: 'beta' } })).json).toEqual({ error: 'Version 1.0.0 already exists in channel beta' });
    const patched = await t.admin('PATCH', `/releases/${created.json.id}`, { body: { channel: 'alpha', notes: null } });
    expect(patched.json).toMatchObject({ version: '1.0.0', channel: 'alpha', notes: null });
    const list = await t.admin('GET', `/products/${product.id}/releases?limit=1`);
    expect(list.json).toHaveLength(1);
    expect(list.headers['x-total-count']).toBe('2');
    expect((await t.admin('GET', `/products/${product.id}/releases?channel=beta`)).json.map((r: any) => r.channel)).toEqual(['beta']);
    const names = (await auditEntries(t)).filter((e: any) => e.data.includes(created.json.id)).map((e: any) => e.name);
    expect(names).toEqual(expect.arrayContaining(['releases.create', 'releases.update']));
  });

  it('stores a file of any content type in chunks with its sha256, refuses more than RELEASE_MAX_BYTES with 413, and keeps a published file', async () => {
    const product = await createProduct(t);
    const draft = (await t.admin('POST', `/products/${product.id}/releases`, { body: { version: '2.0.0' } })).json;
    expect((await t.admin('POST', `/releases/${draft.id}/publish`)).json).toEqual({ error: 'Release has no file' });
    const bytes = randomBytes(2_200_000); // many chunks, the last partial
    const uploaded = await uploadFile(t, draft.id, bytes, 'Big Plugin.bin', { 'content-type': 'application/json' });
    expect(uploaded.status, uploaded.text).toBe(200);
    expect(uploaded.json.file).toEqual({ name: 'Big Plugin.bin', size: bytes.length, sha256: sha256(bytes), mainClass: null });
    const chunks = await t.app.db.selectFrom('release_file_chunks').select(['chunk_index']).innerJoin('releases', 'releases.file_id', 'release_file_chunks.file_id').where('releases.id', '=', draft.id).execute();
    expect(chunks.map((c) => c.chunk_index).sort((a, b) => a - b)).toEqual(Array.from({ length: Math.ceil(bytes.length / CHUNK_SIZE) }, (_, i) => i));
    // A replaced draft file is removed with its chunks.
    const before = await t.app.db.selectFrom('release_files').select('id').execute();
    expect((await uploadFile(t, draft.id, bytes.subarray(0, 10), 'small.bin')).json.file.size).toBe(10);
    expect((await t.app.db.selectFrom('release_files').select('id').execute()).length).toBe(before.length);

    const tooBig = await uploadFile(t, draft.id, randomBytes(MAX_BYTES + 1), 'huge.bin');
    expect(tooBig.status).toBe(413);
    expect(tooBig.json.error).toContain('RELEASE_MAX_BYTES');
    expect((await t.admin('GET', `/releases/${draft.id}`)).json.file.size).toBe(10);
    expect((await t.admin('PUT', `/releases/${draft.id}/file`, { rawBody: 'x' })).json).toEqual({ error: 'X-File-Name header is required (the file name, e.g. MyPlugin-1.4.2.jar)' });
    expect((await uploadFile(t, draft.id, Buffer.from('not a zip'), 'plugin.jar')).json.error).toMatch(/not a readable jar/);
    expect((await uploadFile(t, 'nope', Buffer.from('x'), 'a.bin')).status).toBe(404);

    const published = await t.admin('POST', `/releases/${draft.id}/publish`);
    expect(published.json).toMatchObject({ status: 'published', publishedAtEpochMillis: expect.any(Number) });
    expect((await uploadFile(t, draft.id, Buffer.from('x'), 'a.bin')).json).toEqual({ error: "A published release's file cannot change" });
    expect((await t.admin('PATCH', `/releases/${draft.id}`, { body: { channel: 'beta' } })).json).toEqual({ error: 'A published release keeps its channel' });
    expect((await t.admin('DELETE', `/releases/${draft.id}`)).status).toBe(409);
    expect((await t.admin('POST', `/releases/${draft.id}/deprecate`)).json.status).toBe('deprecated');
    expect((await t.admin('POST', `/releases/${draft.id}/archive`)).json.status).toBe('archived');
    expect((await t.admin('POST', `/releases/${draft.id}/archive`)).json).toEqual({ error: 'Release is already archived' });
    expect((await t.admin('DELETE', `/releases/${draft.id}`)).status).toBe(204);
    expect((await t.admin('GET', `/releases/${draft.id}`)).status).toBe(404);
    const names = (await auditEntries(t)).filter((e: any) => e.data.includes(draft.id)).map((e: any) => e.name);
    expect(names).toEqual(expect.arrayContaining(['releases.file', 'releases.publish', 'releases.deprecate', 'releases.archive', 'releases.delete']));
  });

  it("records a jar's main class from its plugin descriptor", async () => {
    const product = await createProduct(t);
    const draft = (await t.admin('POST', `/products/${product.id}/releases`, { body: { version: '1.0' } })).json;
    const jar = storedZip({ 'META-INF/MANIFEST.MF': 'Manifest-Version: 1.0\n', 'plugin.yml': 'name: Demo\nmain: com.example.demo.DemoPlugin\nversion: 1.0\n' });
    const uploaded = await uploadFile(t, draft.id, jar, 'Demo.jar');
    expect(uploaded.json.file).toMatchObject({ name: 'Demo.jar', mainClass: 'com.example.demo.DemoPlugin', sha256: sha256(jar) });
  });

  it('downloads the newest published release as validation decides: attempt recorded, HWID bound, download recorded with the sha256 sent', async () => {
    const product = await createProduct(t);
    const license = await newLicense(t, { productId: product.id, maxHwids: 1 });
    const bytes = randomBytes(1_500_000);
    const old = await newRelease(t, product.id, { version: '1.0.0', bytes: Buffer.from('old') });
    const current = await newRelease(t, product.id, { version: '1.1.0', bytes, name: 'Plugin 1.1.0.bin' });
    await newRelease(t, product.id, { version: '1.2.0', publish: false }); // a draft is absent
    await newRelease(t, product.id, { version: '2.0.0-beta', channel: 'beta' });

    const res = await downloadRelease(t, { licenseId: license.id, productId: product.id, hwid: 'HW-1' });
    expect(res.status, res.text).toBe(200);
    expect(res.bytes.equals(bytes)).toBe(true);
    expect(res.headers).toMatchObject({
      'content-type': 'application/octet-stream',
      'x-release-version': '1.1.0',
      'x-release-sha256': sha256(bytes),
      'cache-control': 'no-store',
      'content-disposition': `attachment; filename="Plugin 1.1.0.bin"; filename*=UTF-8''Plugin%201.1.0.bin`,
    });
    const stored = (await t.admin('GET', `/licenses/${license.id}`)).json;
    expect(stored.usedHwids).toEqual(['HW-1']);
    expect(stored.validationAttempts.map((a: any) => a.reason)).toEqual(['VALID']);
    const downloads = await t.admin('GET', `/releases/${current.id}/downloads`);
    expect(downloads.json).toEqual([{ id: res.headers['x-download-id'], licenseId: license.id, ip: '127.0.0.1', hwid: 'HW-1', atEpochMillis: expect.any(Number), sha256: sha256(bytes) }]);
    // A named version, another channel.
    expect((await downloadRelease(t, { licenseId: license.id, productId: product.id, hwid: 'HW-1', version: '1.0.0' })).text).toBe('old');
    expect((await downloadRelease(t, { licenseId: license.id, productId: product.id, hwid: 'HW-1', channel: 'beta' })).headers['x-release-version']).toBe('2.0.0-beta');
    expect((await downloadRelease(t, { licenseId: license.id, productId: product.id, hwid: 'HW-1', version: '1.2.0' })).json).toEqual({ error: 'Release not found' });
    expect((await downloadRelease(t, { licenseId: license.id, productId: product.id, hwid: 'HW-1', version: '7.0.0' })).status).toBe(404);
    // Archived: absent to licenses.
    await t.admin('POST', `/releases/${old.id}/archive`);
    expect((await downloadRelease(t, { licenseId: license.id, productId: product.id, hwid: 'HW-1', version: '1.0.0' })).status).toBe(404);
    const other = await createProduct(t);
    const otherLicense = await newLicense(t, { productId: other.id });
    expect((await downloadRelease(t, { licenseId: otherLicense.id, productId: other.id, hwid: 'x' })).json).toEqual({ error: 'No published release in this channel' });
    // Counted in the metrics.
    const metrics = await t.app.inject({ method: 'GET', url: '/metrics' });
    if (metrics.statusCode === 200) expect(metrics.body).toMatch(/licensing_release_downloads_total\{kind="plain"\} [1-9]/);
  });

  it('refuses exactly as validation does, with the validation body (403), recording the attempt', async () => {
    const product = await revealing();
    await newRelease(t, product.id, { version: '1.0.0' });
    const refused = [
      await newLicense(t, { productId: product.id, expiresAtEpochMillis: Date.now() - 1000 }),
      await newLicense(t, { productId: product.id, maxHwids: 0 }),
      await newLicense(t, { productId: (await createProduct(t)).id }),
    ];
    const revoked = await newLicense(t, { productId: product.id });
    await t.admin('POST', `/licenses/${revoked.id}/revoke`, { body: {} });
    refused.push(revoked);
    const blocked = await newLicense(t, { productId: product.id });
    await t.admin('POST', '/blocklist', { body: { type: 'hwid', value: 'HW-BLOCKED', mode: 'block' } });
    for (const license of refused) {
      const body = { licenseId: license.id, productId: product.id, hwid: 'HW-2' };
      const validation = await validate(t, body);
      const res = await downloadRelease(t, body);
      expect(res.status).toBe(403);
      expect(res.json).toEqual(validation.json);
      expect(res.json.valid).toBe(false);
      const attempts = (await t.admin('GET', `/licenses/${license.id}`)).json.validationAttempts;
      expect(attempts).toHaveLength(2);
      expect(attempts[1].reason).toBe(attempts[0].reason);
    }
    const blockedRes = await downloadRelease(t, { licenseId: blocked.id, productId: product.id, hwid: 'HW-BLOCKED' });
    expect(blockedRes.json).toEqual({ valid: false, reason: 'BLOCKED' });
    // Unknown license: the bare validation body.
    expect((await downloadRelease(t, { licenseId: 'NOPE', productId: product.id })).json).toEqual({ valid: false });
    // Without revealReasons: the body is bare.
    const quiet = await createProduct(t);
    await newRelease(t, quiet.id, { version: '1.0.0' });
    const expired = await newLicense(t, { productId: quiet.id, expiresAtEpochMillis: Date.now() - 1000 });
    expect((await downloadRelease(t, { licenseId: expired.id, productId: quiet.id, hwid: 'a' })).json).toEqual({ valid: false });
  });

  it('counts against the validation rate limit of the IP', async () => {
    const limited = await startTestApp(dialect, { VALIDATION_RATE_LIMIT: '2' });
    try {
      const body = { licenseId: 'NOPE', productId: 'x' };
      expect((await limited.req('POST', '/licenses/validate', { body: { ...body, hwid: 'a' } })).status).toBe(200);
      expect((await downloadRelease(limited, body)).status).toBe(403);
      expect((await downloadRelease(limited, body)).status).toBe(429);
      expect((await limited.req('POST', '/releases/latest', { body })).status).toBe(429);
    } finally {
      await limited.close();
    }
  });

  it('delivers only releases published within the window: updatesUntil, else the grace end, none for a perpetual license', async () => {
    const time = useTestClock();
    const product: any = await createProduct(t, { updatesForDays: 30, revealReasons: true });
    expect(product.updatesForDays).toBe(30);
    const license = await newLicense(t, { productId: product.id });
    expect(license.updatesUntilEpochMillis).toBe(license.createdAtEpochMillis + 30 * DAY_MS);
    const perpetual = await newLicense(t, { productId: product.id, updatesUntilEpochMillis: null });
    expect(perpetual.updatesUntilEpochMillis).toBeNull();
    const inGrace = await newLicense(t, { productId: (await createProduct(t, { revealReasons: true })).id, expiresAtEpochMillis: time.now() + DAY_MS, graceDays: 3 });
    await newRelease(t, product.id, { version: '1.0.0' });
    await newRelease(t, inGrace.productId, { version: '1.0.0' });
    const get = (l: { id: string; productId: string }, over: Record<string, unknown> = {}) => downloadRelease(t, { licenseId: l.id, productId: l.productId, hwid: 'HW', ...over });
    expect((await get(inGrace)).status).toBe(200); // binds HW before expiry

    time.advance(31 * DAY_MS);
    await newRelease(t, product.id, { version: '1.1.0' });
    // Past updatesUntil: it still validates, and gets what was published up to then.
    expect((await validate(t, { licenseId: license.id, productId: product.id, hwid: 'HW' })).json).toEqual({ valid: true, reason: 'VALID' });
    expect((await get(license)).headers['x-release-version']).toBe('1.0.0');
    expect((await get(license, { version: '1.1.0' })).json).toEqual({ valid: false, reason: 'RELEASE_NOT_ALLOWED' });
    expect((await get(perpetual)).headers['x-release-version']).toBe('1.1.0');
    // Staff move the window.
    const until = time.now();
    expect((await t.admin('PATCH', `/licenses/${license.id}`, { body: { updatesUntilEpochMillis: until } })).json.updatesUntilEpochMillis).toBe(until);
    expect((await get(license)).headers['x-release-version']).toBe('1.1.0');
    // Expired, in its grace days (bound HWID): releases published up to the grace end.
    await t.admin('PATCH', `/licenses/${inGrace.id}`, { body: { expiresAtEpochMillis: time.now() - DAY_MS } });
    await newRelease(t, inGrace.productId, { version: '1.1.0' });
    expect((await validate(t, { licenseId: inGrace.id, productId: inGrace.productId, hwid: 'HW' })).json).toEqual({ valid: true, reason: 'GRACE' });
    const graced = await get(inGrace);
    expect(graced.status, graced.text).toBe(200);
    expect(graced.headers['x-release-version']).toBe('1.1.0');
    // A new HWID in grace is refused as validation refuses it.
    expect((await get(inGrace, { hwid: 'HW-NEW' })).json).toEqual({ valid: false, reason: 'GRACE_UNBOUND' });
    // The window ends before a release: that one is not the license's.
    await t.admin('PATCH', `/licenses/${inGrace.id}`, { body: { updatesUntilEpochMillis: time.now() - 1 } });
    time.advance(1000);
    await newRelease(t, inGrace.productId, { version: '1.2.0' });
    expect((await get(inGrace, { version: '1.2.0' })).json).toEqual({ valid: false, reason: 'RELEASE_NOT_ALLOWED' });
    expect((await get(inGrace)).headers['x-release-version']).toBe('1.1.0');
  });

  it('answers the update check, signed with a nonce, binding and recording nothing', async () => {
    const product = await createProduct(t);
    const license = await newLicense(t, { productId: product.id, maxHwids: 1 });
    const old = await newRelease(t, product.id, { version: '1.0.0' });
    const current = await newRelease(t, product.id, { version: '1.1.0', bytes: Buffer.from('newest') });
    const nonce = 'nonce-0123456789abcdef';
    const res = await t.req('POST', '/releases/latest', { body: { licenseId: license.id, productId: product.id, hwid: 'HW', version: '1.0.0', nonce } });
    expect(res.json).toEqual({
      valid: true,
      latest: { version: '1.1.0', sha256: sha256(Buffer.from('newest')), size: 6, publishedAtEpochMillis: current.publishedAtEpochMillis },
      current: { status: 'published' },
      update: true,
    });
    const jwks = (await t.req('GET', '/.well-known/jwks.json')).json;
    const { header, payload } = verifyJws(res.headers['validation-receipt'] as string, jwks);
    expect(header.typ).toBe('release-check');
    expect(payload).toEqual({ licenseId: license.id, productId: product.id, hwid: 'HW', nonce, valid: true, latest: res.json.latest, timestampEpochMillis: expect.any(Number) });
    const stored = (await t.admin('GET', `/licenses/${license.id}`)).json;
    expect(stored.usedHwids).toEqual([]);
    expect(stored.validationAttempts).toEqual([]);
    await t.admin('POST', `/releases/${old.id}/deprecate`);
    expect((await t.req('POST', '/releases/latest', { body: { licenseId: license.id, productId: product.id, version: '1.1.0' } })).json).toMatchObject({ update: false, current: { status: 'published' } });
    expect((await t.req('POST', '/releases/latest', { body: { licenseId: license.id, productId: product.id, version: '1.0.0' } })).json.current).toEqual({ status: 'deprecated' });
    expect((await t.req('POST', '/releases/latest', { body: { licenseId: license.id, productId: product.id, version: '5.0' } })).json.current).toBeNull();
    expect((await t.req('POST', '/releases/latest', { body: { licenseId: 'NOPE', productId: product.id } })).json).toEqual({ valid: false, latest: null, current: null, update: false });
    expect(res.headers['validation-receipt']).toBeDefined();
    expect((await t.req('POST', '/releases/latest', { body: { licenseId: license.id, productId: product.id } })).headers['validation-receipt']).toBeUndefined();
  });

  it('validation takes a version: recorded with the attempt; refuseUnsupportedVersions refuses archived and unknown ones and marks deprecated ones', async () => {
    const product = await createProduct(t, { revealReasons: true });
    const license = await newLicense(t, { productId: product.id });
    const [v1, v2] = [await newRelease(t, product.id, { version: '1.0' }), await newRelease(t, product.id, { version: '2.0' })];
    await newRelease(t, product.id, { version: '3.0', publish: false });
    const check = (version?: string, nonce?: string) => validate(t, { licenseId: license.id, productId: product.id, hwid: 'HW', ...(version ? { version } : {}), ...(nonce ? { nonce } : {}) });
    // Off: every version validates.
    expect((await check('0.1')).json).toEqual({ valid: true, reason: 'VALID' });
    expect((await t.admin('PATCH', `/products/${product.id}`, { body: { refuseUnsupportedVersions: true } })).json.refuseUnsupportedVersions).toBe(true);
    expect((await check('0.1')).json).toEqual({ valid: false, reason: 'VERSION_NOT_SUPPORTED' });
    expect((await check('3.0')).json).toEqual({ valid: false, reason: 'VERSION_NOT_SUPPORTED' }); // a draft is unknown
    expect((await check('2.0')).json).toEqual({ valid: true, reason: 'VALID' });
    expect((await check()).json).toEqual({ valid: true, reason: 'VALID' });
    await t.admin('POST', `/releases/${v1.id}/archive`);
    expect((await check('1.0')).json).toEqual({ valid: false, reason: 'VERSION_NOT_SUPPORTED' });
    await t.admin('POST', `/releases/${v2.id}/deprecate`);
    const deprecated = await check('2.0', 'nonce-0123456789abcdef');
    expect(deprecated.json).toEqual({ valid: true, reason: 'VALID' });
    const jwks = (await t.req('GET', '/.well-known/jwks.json')).json;
    expect(verifyJws(deprecated.headers['validation-receipt'] as string, jwks).payload).toMatchObject({ valid: true, deprecated: true });
    expect(verifyJws((await check('2.0x', 'nonce-0123456789abcdef')).headers['validation-receipt'] as string, jwks).payload).not.toHaveProperty('deprecated');
    const versions = await t.app.db.selectFrom('validation_attempts').select(['client_version', 'reason']).where('license_id', '=', license.id).orderBy('id').execute();
    expect(versions.map((v) => v.client_version)).toEqual(['0.1', '0.1', '3.0', '2.0', null, '1.0', '2.0', '2.0x']);
    expect((await validate(t, { licenseId: license.id, productId: product.id, hwid: 'HW', version: 'bad version' })).status).toBe(400);
  });

  it('traces nothing in a jar this service did not stamp, and refuses a body that is not a jar', async () => {
    const plain = storedZip({ 'plugin.yml': 'main: a.B\n' });
    expect((await t.admin('POST', '/releases/trace', { rawBody: plain, headers: { 'content-type': 'application/java-archive' } })).json).toEqual({ error: 'Not a stamped download' });
    expect((await t.admin('POST', '/releases/trace', { rawBody: 'garbage' })).json).toEqual({ error: 'The body is not a readable jar (zip)' });
    expect((await t.admin('POST', '/releases/trace', { rawBody: randomBytes(MAX_BYTES + 1) })).status).toBe(413);
  });

  it('needs releases:read to read and releases:write to change', async () => {
    const product = await createProduct(t);
    const release = await newRelease(t, product.id, { version: '1.0.0' });
    const reader = await staffWith(t, ['releases:read']);
    expect((await t.req('GET', `/releases/${release.id}`, { token: reader.token })).status).toBe(200);
    expect((await t.req('GET', `/releases/${release.id}/downloads`, { token: reader.token })).status).toBe(200);
    expect((await t.req('POST', `/releases/${release.id}/archive`, { token: reader.token })).status).toBe(403);
    expect((await t.req('PUT', `/releases/${release.id}/file`, { token: reader.token, rawBody: 'x', headers: { 'x-file-name': 'a' } })).status).toBe(403);
    const writer = await staffWith(t, ['releases:write']);
    expect((await t.req('POST', `/releases/${release.id}/archive`, { token: writer.token })).status).toBe(200);
    // A product with releases is not deleted.
    expect((await t.admin('DELETE', `/products/${product.id}`)).json).toEqual({ error: 'Product is referenced by 1 release' });
  });
});
