// Stamped jars, end to end (src/lib/jars, and Java 17's javac, jar and java): a plugin jar
// with the four placeholders is uploaded, downloaded stamped for a license, run with `java`
// to print what it holds, traced back to its download by its signed entry and, with the
// entry stripped, by a stamped constant.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProduct, newLicense } from '../../../test/helpers/fixtures.js';
import { verifyJws } from '../../../test/helpers/jws.js';
import { downloadRelease, newRelease } from '../../../test/helpers/releases.js';
import { DIALECTS, startTestApp, type TestApp } from '../../../test/helpers/test-app.js';

const SOURCE = `package demo;
public class Main {
  static final long BEFORE = 1234567890123L;
  static final double RATIO = 2.5;
  // Not final: javac folds a concatenation of final constants into one string, which holds
  // the placeholders inside a longer text (never stamped; docs/releases.md says so).
  static String KEY = "%%__LICENSING_KEY__%%";
  static String CUSTOMER = "%%__LICENSING_CUSTOMER__%%";
  public static void main(String[] args) {
    System.out.println(KEY + "|" + CUSTOMER + "|" + String.valueOf("%%__LICENSING_DOWNLOAD__%%") + "|" + String.valueOf("%%__LICENSING_NONCE__%%") + "|" + BEFORE + RATIO);
  }
}
`;

describe.each(DIALECTS)('stamped jars (%s)', (dialect) => {
  let t: TestApp;
  let dir: string;
  let jar: Buffer;
  beforeAll(async () => {
    t = await startTestApp(dialect, { VALIDATION_RATE_LIMIT: '10000' });
    dir = mkdtempSync(join(tmpdir(), 'stamped-'));
    mkdirSync(join(dir, 'src/demo'), { recursive: true });
    mkdirSync(join(dir, 'classes'));
    writeFileSync(join(dir, 'src/demo/Main.java'), SOURCE);
    writeFileSync(join(dir, 'classes/plugin.yml'), 'name: Demo\nmain: demo.Main\nversion: 1.0\n');
    execFileSync('javac', ['-d', join(dir, 'classes'), join(dir, 'src/demo/Main.java')]);
    execFileSync('jar', ['cf', join(dir, 'demo.jar'), '-C', join(dir, 'classes'), '.']);
    jar = readFileSync(join(dir, 'demo.jar'));
  });
  afterAll(async () => {
    await t.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('stamps each download for its license, signs the entry, records it, and traces a leak by the entry or a constant', async () => {
    const product = await createProduct(t);
    const license = await newLicense(t, { productId: product.id });
    const release = await newRelease(t, product.id, { version: '1.0.0', bytes: jar, name: 'Demo.jar' });
    expect(release.file.mainClass).toBe('demo.Main');

    const res = await downloadRelease(t, { licenseId: license.id, productId: product.id, hwid: 'HW' });
    expect(res.status, res.text).toBe(200);
    expect(res.headers['content-type']).toBe('application/java-archive');
    expect(res.headers['x-release-sha256']).toBe(createHash('sha256').update(res.bytes).digest('hex'));
    const downloadId = res.headers['x-download-id'] as string;
    const stamped = join(dir, `stamped-${dialect}.jar`);
    writeFileSync(stamped, res.bytes);
    const printed = execFileSync('java', ['-cp', stamped, 'demo.Main']).toString().trim().split('|');
    expect(printed.slice(0, 3)).toEqual([license.id, license.customerId, downloadId]);
    expect(printed[3]).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(printed[4]).toBe('12345678901232.5');

    const entry = execFileSync('unzip', ['-p', stamped, 'META-INF/LICENSING-DOWNLOAD.jws']).toString();
    const jwks = (await t.req('GET', '/.well-known/jwks.json')).json;
    const { header, payload } = verifyJws(entry, jwks);
    expect(header.typ).toBe('download');
    expect(payload).toEqual({ downloadId, licenseId: license.id, releaseId: release.id, sha256: release.file.sha256, iatEpochMillis: expect.any(Number) });
    const downloads = (await t.admin('GET', `/releases/${release.id}/downloads`)).json;
    expect(downloads).toEqual([expect.objectContaining({ id: downloadId, licenseId: license.id, sha256: res.headers['x-release-sha256'] })]);
    // A second download is another jar.
    const again = await downloadRelease(t, { licenseId: license.id, productId: product.id, hwid: 'HW' });
    expect(again.headers['x-release-sha256']).not.toBe(res.headers['x-release-sha256']);

    const traced = await t.admin('POST', '/releases/trace', { rawBody: res.bytes, headers: { 'content-type': 'application/java-archive' } });
    expect(traced.json).toMatchObject({ foundBy: 'entry', download: { id: downloadId, licenseId: license.id }, customerId: license.customerId, release: { id: release.id, version: '1.0.0' } });
    execFileSync('zip', ['-d', stamped, 'META-INF/LICENSING-DOWNLOAD.jws']);
    const stripped = await t.admin('POST', '/releases/trace', { rawBody: readFileSync(stamped), headers: { 'content-type': 'application/octet-stream' } });
    expect(stripped.json).toMatchObject({ foundBy: 'constant', download: { id: downloadId } });
    expect((await t.admin('POST', '/releases/trace', { rawBody: jar })).json).toEqual({ error: 'Not a stamped download' });
    expect((await t.admin('POST', '/releases/trace', { rawBody: 'not a jar' })).status).toBe(400);
  });
});
