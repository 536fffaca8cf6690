// Bindings that heal (DECISIONS.md): first/last seen per binding, inactivity release
// inside the validation, self-service release, on both databases and under concurrency.
import { describe, expect, it } from 'vitest';
import { auditEntries, createProduct, newLicense, putBody, readLicense, validate } from '../../../test/helpers/fixtures.js';
import { DIALECTS, type TestApp } from '../../../test/helpers/test-app.js';
import { startTwoInstances } from '../../../test/helpers/two-instances.js';
import type { License } from './licenses.schemas.js';

const ENV = { VALIDATION_RATE_LIMIT: '100000', METRICS_TOKEN: 'metrics-token-for-heal-tests' };
const MINUTE = 60_000;
const ipOf = (i: number) => `127.0.${2 + Math.floor(i / 250)}.${(i % 250) + 1}`;

/** Makes the license's bindings of one kind look last seen `ago` ms ago (tests cannot wait for real idleness). */
async function age(t: TestApp, kind: 'ip' | 'hwid', licenseId: string, value: string, ago: number): Promise<void> {
  const lastSeen = { last_seen_at: Date.now() - ago };
  if (kind === 'ip') await t.app.db.updateTable('license_ips').set(lastSeen).where('license_id', '=', licenseId).where('ip', '=', value).execute();
  else await t.app.db.updateTable('license_hwids').set(lastSeen).where('license_id', '=', licenseId).where('hwid', '=', value).execute();
}

const release = (t: TestApp, body: unknown, localAddress = '127.0.0.1') => t.req('POST', '/licenses/release', { body, localAddress });

/** The license's licenses.slot.release entries, their data parsed (the API answers it as a JSON string). */
const releaseEntries = async (t: TestApp, licenseId: string) =>
  (await auditEntries(t, 'licenses.slot.release'))
    .map((e) => ({ ...e, data: JSON.parse(e.data) }))
    .filter((e) => e.data.licenseId === licenseId);

async function metric(t: TestApp, reason: string): Promise<number> {
  const text = (await t.req('GET', '/metrics', { token: ENV.METRICS_TOKEN })).text;
  const line = text.split('\n').find((l) => l.startsWith(`licensing_slot_releases_total{reason="${reason}"}`));
  return line ? Number(line.split(' ').pop()) : 0;
}

describe.each(DIALECTS)('bindings that heal (%s)', (dialect) => {
  let a: TestApp;
  let b: TestApp;
  startTwoInstances(dialect, ENV, (started) => ({ a, b } = started));

  const fullIdleLicense = async (over: Record<string, unknown> = {}): Promise<License> => {
    const license = await newLicense(a, { maxHwids: 2, slotTimeoutMinutes: 60, ...over });
    for (const hwid of ['old-1', 'old-2']) {
      expect((await validate(a, { licenseId: license.id, productId: license.productId, hwid })).json.valid).toBe(true);
    }
    return license;
  };

  it('shows each binding with when it was bound and last seen; a successful validation refreshes last seen, never the version', async () => {
    const before = Date.now();
    const license = await newLicense(a);
    const args = { licenseId: license.id, productId: license.productId, hwid: 'machine-1' };
    await validate(a, args);
    const bound = await readLicense(a, license.id);
    expect(bound.bindings.hwids).toEqual([{ value: 'machine-1', firstSeenAtEpochMillis: expect.any(Number), lastSeenAtEpochMillis: expect.any(Number) }]);
    expect(bound.bindings.ips.map((x) => x.value)).toEqual(bound.usedIps);
    const { firstSeenAtEpochMillis } = bound.bindings.hwids[0]!;
    expect(firstSeenAtEpochMillis).toBeGreaterThanOrEqual(before);

    await age(a, 'hwid', license.id, 'machine-1', 3 * MINUTE);
    await validate(a, args);
    const seen = await readLicense(a, license.id);
    expect(seen.bindings.hwids[0]!.firstSeenAtEpochMillis).toBe(firstSeenAtEpochMillis);
    expect(seen.bindings.hwids[0]!.lastSeenAtEpochMillis).toBeGreaterThan(Date.now() - MINUTE);
    expect(seen.version).toBe(license.version);

    // a failed validation does not count as seen
    await age(a, 'hwid', license.id, 'machine-1', 3 * MINUTE);
    await validate(a, { ...args, productId: 'another-product' });
    expect((await readLicense(a, license.id)).bindings.hwids[0]!.lastSeenAtEpochMillis).toBeLessThan(Date.now() - 2 * MINUTE);
  });

  it('licenses inherit slotTimeoutMinutes and selfReleaseLimit from the product; the body may override; PUT omitting them sets null', async () => {
    const product = await createProduct(a, { slotTimeoutMinutes: 1440, selfReleaseLimit: 3 });
    expect(product).toMatchObject({ slotTimeoutMinutes: 1440, selfReleaseLimit: 3 });
    const inherited = await newLicense(a, { productId: product.id });
    expect(inherited).toMatchObject({ slotTimeoutMinutes: 1440, selfReleaseLimit: 3, selfReleasesUsed: 0, selfReleasesLeft: 3 });
    const own = await newLicense(a, { productId: product.id, slotTimeoutMinutes: null, selfReleaseLimit: 1 });
    expect(own).toMatchObject({ slotTimeoutMinutes: null, selfReleaseLimit: 1, selfReleasesLeft: 1 });
    const { slotTimeoutMinutes: _t, selfReleaseLimit: _s, ...rest } = putBody(inherited);
    const put = await a.admin('PUT', `/licenses/${inherited.id}`, { body: rest });
    expect(put.json).toMatchObject({ slotTimeoutMinutes: null, selfReleaseLimit: null, selfReleasesLeft: null });

    for (const bad of [0, -1, 1.5, '60']) {
      const res = await a.admin('POST', '/licenses', { body: { productId: product.id, customerId: inherited.customerId, slotTimeoutMinutes: bad } });
      expect(res.status).toBe(400);
      expect(res.json.error).toContain('slotTimeoutMinutes');
    }
  });

  it('a full license frees its least recently seen idle binding for a new machine, audited, version unchanged', async () => {
    const license = await fullIdleLicense();
    await age(a, 'hwid', license.id, 'old-1', 120 * MINUTE);
    await age(a, 'hwid', license.id, 'old-2', 90 * MINUTE);
    const releasedBefore = await metric(a, 'inactive');

    const res = await validate(a, { licenseId: license.id, productId: license.productId, hwid: 'new-host' });
    expect(res.json).toEqual({ valid: true });
    const after = await readLicense(a, license.id);
    expect(after.usedHwids).toEqual(['old-2', 'new-host']);
    expect(after.version).toBe(license.version);
    const [entry, ...more] = await releaseEntries(a, license.id);
    expect(more).toHaveLength(0);
    expect(entry).toMatchObject({
      performedBy: 'validation',
      data: { licenseId: license.id, kind: 'hwid', value: 'old-1', reason: 'inactive', lastSeenAtEpochMillis: expect.any(Number) },
    });
    expect(entry!.data.lastSeenAtEpochMillis).toBeLessThan(Date.now() - 119 * MINUTE);
    expect(await metric(a, 'inactive')).toBe(releasedBefore + 1);
  });

  it('frees nothing while the bindings are younger than the timeout, without a timeout, or when a later check fails', async () => {
    const young = await fullIdleLicense();
    await age(a, 'hwid', young.id, 'old-1', 59 * MINUTE);
    expect((await validate(a, { licenseId: young.id, productId: young.productId, hwid: 'new' })).json.valid).toBe(false);
    expect((await readLicense(a, young.id)).usedHwids).toEqual(['old-1', 'old-2']);

    const permanent = await fullIdleLicense({ slotTimeoutMinutes: null });
    await age(a, 'hwid', permanent.id, 'old-1', 1000 * MINUTE);
    const refused = await validate(a, { licenseId: permanent.id, productId: permanent.productId, hwid: 'new' });
    expect(refused.json.valid).toBe(false);
    expect((await readLicense(a, permanent.id)).validationAttempts.at(-1)!.reason).toBe('HWID_LIMIT_REACHED');

    // The IP check fails (its one slot is held and recently seen): the idle HWID stays bound.
    const ipFull = await fullIdleLicense({ maxIps: 1 });
    await age(a, 'hwid', ipFull.id, 'old-1', 1000 * MINUTE);
    const other = await validate(a, { licenseId: ipFull.id, productId: ipFull.productId, hwid: 'new' }, '127.0.0.9');
    expect(other.json.valid).toBe(false);
    const kept = await readLicense(a, ipFull.id);
    expect(kept.usedHwids).toEqual(['old-1', 'old-2']);
    expect(kept.validationAttempts.at(-1)!.reason).toBe('IP_LIMIT_REACHED');
    for (const id of [young.id, permanent.id, ipFull.id]) expect(await releaseEntries(a, id)).toHaveLength(0);
  });

  it('idle IPs heal the same way (a host that changed address)', async () => {
    const license = await newLicense(a, { maxIps: 1, slotTimeoutMinutes: 5 });
    const args = { licenseId: license.id, productId: license.productId, hwid: 'server' };
    expect((await validate(a, args, '127.0.0.20')).json.valid).toBe(true);
    expect((await validate(a, args, '127.0.0.21')).json.valid).toBe(false);
    await age(a, 'ip', license.id, '127.0.0.20', 6 * MINUTE);
    expect((await validate(a, args, '127.0.0.21')).json.valid).toBe(true);
    expect((await readLicense(a, license.id)).usedIps).toEqual(['127.0.0.21']);
    expect((await releaseEntries(a, license.id))[0]!.data).toMatchObject({ kind: 'ip', value: '127.0.0.20', reason: 'inactive' });
  });

  it('POST /licenses/release: 404 unknown or other product, 403 when off, frees named bound values, counts only calls that free something', async () => {
    const off = await fullIdleLicense();
    expect(await release(a, { licenseId: 'AAAAA-BBBBB-CCCCC-DDDDD-EEEEE', productId: off.productId, hwid: 'old-1' })).toMatchObject({
      status: 404,
      json: { error: 'License not found' },
    });
    expect((await release(a, { licenseId: off.id, productId: 'other', hwid: 'old-1' })).status).toBe(404);
    expect(await release(a, { licenseId: off.id, productId: off.productId, hwid: 'old-1' })).toMatchObject({
      status: 403,
      json: { error: 'Self-service release is not enabled for this license' },
    });

    const license = await fullIdleLicense({ selfReleaseLimit: 2, slotTimeoutMinutes: null });
    const key = { licenseId: license.id, productId: license.productId };
    const ip = (await readLicense(a, license.id)).usedIps[0]!;
    const releasedBefore = await metric(a, 'self');
    const first = await release(a, { ...key, hwid: 'old-1', ip });
    expect(first).toMatchObject({ status: 200, json: { releasedIps: [ip], releasedHwids: ['old-1'], selfReleasesLeft: 1 } });
    expect(await metric(a, 'self')).toBe(releasedBefore + 2);
    const nothing = await release(a, { ...key, hwid: 'never-bound' });
    expect(nothing.json).toEqual({ releasedIps: [], releasedHwids: [], selfReleasesLeft: 1 });

    const after = await readLicense(a, license.id);
    expect(after).toMatchObject({ usedHwids: ['old-2'], usedIps: [], version: license.version, selfReleasesUsed: 1, selfReleasesLeft: 1 });
    const entries = await releaseEntries(a, license.id);
    expect(entries).toHaveLength(2);
    for (const e of entries) expect(e).toMatchObject({ performedBy: 'self-service', data: { reason: 'self', licenseId: license.id } });

    expect((await release(a, { ...key, hwid: 'old-2' })).json.selfReleasesLeft).toBe(0);
    expect((await validate(a, { ...key, hwid: 'again' })).json.valid).toBe(true);
    const limited = await release(a, { ...key, hwid: 'again' });
    expect(limited.status).toBe(429);
    expect(limited.json.error).toMatch(/limit.*2 per 30 days/);
    const retryAfter = Number(limited.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(30 * 24 * 3600 - 120);
    expect(retryAfter).toBeLessThanOrEqual(30 * 24 * 3600);
    expect((await readLicense(a, license.id)).usedHwids).toEqual(['again']); // nothing freed
    // past the limit, a call that would free nothing still answers
    expect((await release(a, { ...key, hwid: 'nope' })).json).toEqual({ releasedIps: [], releasedHwids: [], selfReleasesLeft: 0 });
  });

  it('release: bad input is a 400 naming the field, and changes nothing', async () => {
    const license = await fullIdleLicense({ selfReleaseLimit: 5 });
    const key = { licenseId: license.id, productId: license.productId };
    const cases: [unknown, string][] = [
      [key, 'hwid or ip'],
      [{ ...key, hwid: '' }, 'hwid'],
      [{ ...key, ip: '' }, 'ip'],
      [{ ...key, hwid: 42 }, 'hwid'],
      [{ ...key, ip: ['127.0.0.1'] }, 'ip'],
      [{ productId: license.productId, hwid: 'old-1' }, 'licenseId'],
      [{ licenseId: license.id, hwid: 'old-1' }, 'productId'],
      [{ ...key, hwid: null }, 'hwid'],
    ];
    for (const [body, field] of cases) {
      const res = await release(a, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.json.error).toContain(field);
    }
    const huge = await a.req('POST', '/licenses/release', {
      body: JSON.stringify({ ...key, hwid: 'x'.repeat(10 * 1024 * 1024) }),
      headers: { 'content-type': 'application/json' },
    });
    expect([400, 413]).toContain(huge.status);
    expect(huge.json.error).toBeTruthy();
    const after = await readLicense(a, license.id);
    expect(after).toMatchObject({ usedHwids: ['old-1', 'old-2'], selfReleasesUsed: 0 });
  });

  for (const instances of [1, 2]) {
    it(`${instances} instance(s): 40 parallel validations with new HWIDs on a full, idle license and a racing release never exceed the limit, free only what is needed, lose no attempt`, async () => {
      const license = await newLicense(a, { maxHwids: 3, slotTimeoutMinutes: 10, selfReleaseLimit: 5 });
      const key = { licenseId: license.id, productId: license.productId };
      for (const hwid of ['idle-a', 'idle-b', 'idle-c']) await validate(a, { ...key, hwid });
      for (const hwid of ['idle-a', 'idle-b', 'idle-c']) await age(a, 'hwid', license.id, hwid, 60 * MINUTE);
      const apps = instances === 1 ? [a] : [a, b];

      const [released, ...results] = await Promise.all([
        release(apps.at(-1)!, { ...key, hwid: 'idle-a' }, '127.0.1.1'),
        ...Array.from({ length: 40 }, (_, i) => validate(apps[i % apps.length]!, { ...key, hwid: `new-${i}` }, ipOf(i))),
      ]);
      expect(released!.status).toBe(200);
      expect(results.every((r) => r.status === 200)).toBe(true);
      const winners = results.map((r, i) => (r.json.valid ? `new-${i}` : null)).filter(Boolean);
      // exactly the three idle slots (freed by inactivity or by the release) went to new machines
      expect(winners).toHaveLength(3);
      const after = await readLicense(a, license.id);
      expect(new Set(after.usedHwids)).toEqual(new Set(winners));
      expect(after.validationAttempts).toHaveLength(40 + 3);
      expect(after.validationAttempts.filter((x) => x.successful && x.hwid.startsWith('new-'))).toHaveLength(3);
      const entries = await releaseEntries(a, license.id);
      expect(entries.map((e) => e.data.value).sort()).toEqual(['idle-a', 'idle-b', 'idle-c']);
      expect(after.version).toBe(license.version);
    });
  }
});
