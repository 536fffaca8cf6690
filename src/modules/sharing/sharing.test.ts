// Shared-key detection (DECISIONS.md "Blocklist and shared-key detection"): the setting on
// products and licenses, the mark set once per arming (refused attempts count), what the
// license shows, clearing it (which re-arms), on both databases.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEntries, createProduct, newLicense, productBody, putBody, readLicense, staffWith } from '../../../test/helpers/fixtures.js';
import { DIALECTS, startTestApp, type TestApp } from '../../../test/helpers/test-app.js';

const ENV = { VALIDATION_RATE_LIMIT: '100000', TRUST_PROXY: 'true', WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true' };

describe.each(DIALECTS)('shared-key detection (%s)', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(dialect, ENV);
  });
  afterAll(() => t?.close());

  const validateFrom = (ip: string, body: Record<string, unknown>) =>
    t.req('POST', '/licenses/validate', { body, headers: { 'x-forwarded-for': ip } });
  const suspectedEntries = async (licenseId: string) =>
    (await auditEntries(t, 'licenses.sharing.suspected')).map((e: { data: string }) => JSON.parse(e.data)).filter((d: { licenseId: string }) => d.licenseId === licenseId);

  it('checks the setting: 1-168 hours, at least one limit, no other keys; null is off; products and licenses show it', async () => {
    for (const sharingAlert of [
      { distinctIps: 3, windowHours: 0 },
      { distinctIps: 3, windowHours: 169 },
      { distinctIps: 0, windowHours: 1 },
      { distinctIps: 3, windowHours: 1, extra: 1 },
      { windowHours: 24 },
      { distinctIps: '3', windowHours: 1 },
      'on',
    ]) {
      const res = await t.admin('POST', '/products', { body: { name: 'P', productType: 'software', price: 1, requiresLicense: true, isSubscription: false, sharingAlert } });
      expect(res.status, JSON.stringify(sharingAlert)).toBe(400);
      expect(res.json.error).toContain('sharingAlert');
    }
    const product = await createProduct(t, { sharingAlert: { distinctHwids: 2, windowHours: 24 } });
    expect((await t.admin('GET', `/products/${product.id}`)).json.sharingAlert).toEqual({ distinctHwids: 2, windowHours: 24 });
    const license = await newLicense(t, { productId: product.id });
    expect(license).toMatchObject({ sharingAlert: null, sharingSuspectedAtEpochMillis: null });
    const put = await t.admin('PUT', `/licenses/${license.id}`, { body: putBody(license, { sharingAlert: { distinctIps: 9, windowHours: 168 } }) });
    expect(put.json.sharingAlert).toEqual({ distinctIps: 9, windowHours: 168 });
    const sharing = await t.admin('GET', `/licenses/${license.id}/sharing`);
    expect(sharing.json).toMatchObject({ alert: { distinctIps: 9, windowHours: 168 }, alertSource: 'license', suspectedAtEpochMillis: null, distinctIps: 0 });
  });

  it('marks a license presented from more distinct HWIDs than allowed (refused attempts count) once, with an audit entry and event; clearing re-arms', async () => {
    const endpoint = await t.admin('POST', '/webhook-endpoints', { body: { url: 'http://127.0.0.1:9/hook', events: ['licenses.sharing.suspected'] } });
    expect(endpoint.status).toBe(201);
    const product = await createProduct(t, { sharingAlert: { distinctHwids: 2, windowHours: 1 } });
    const license = await newLicense(t, { productId: product.id, maxHwids: 1 });
    const args = (hwid: string) => ({ licenseId: license.id, productId: product.id, hwid });
    expect((await validateFrom('192.0.2.1', args('HW-A'))).json).toEqual({ valid: true });
    expect((await validateFrom('192.0.2.1', args('HW-B'))).json).toEqual({ valid: false }); // refused: still counts
    expect((await readLicense(t, license.id)).sharingSuspectedAtEpochMillis).toBeNull();
    const before = Date.now();
    expect((await validateFrom('192.0.2.2', args('HW-C'))).json).toEqual({ valid: false });
    const marked = await readLicense(t, license.id);
    expect(marked.sharingSuspectedAtEpochMillis).toBeGreaterThanOrEqual(before);
    for (const hwid of ['HW-D', 'HW-E', 'HW-A']) await validateFrom('192.0.2.3', args(hwid));
    const entries = await suspectedEntries(license.id);
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ licenseId: license.id, distinctIps: 2, distinctHwids: 3, windowHours: 1 });
    expect(entries[0].topValues.hwids.map((v: { value: string }) => v.value)).toEqual(expect.arrayContaining(['HW-A', 'HW-B', 'HW-C']));
    const events = await t.app.db.selectFrom('webhook_outbox').select('body').where('type', '=', 'licenses.sharing.suspected').execute();
    expect(events.map((e) => JSON.parse(e.body).data).filter((d) => d.licenseId === license.id)).toHaveLength(1);

    const sharing = (await t.admin('GET', `/licenses/${license.id}/sharing`)).json;
    expect(sharing).toMatchObject({ alertSource: 'product', suspectedAtEpochMillis: marked.sharingSuspectedAtEpochMillis, distinctHwids: 5, distinctIps: 3 });
    expect(sharing.topValues.hwids[0]).toMatchObject({ value: 'HW-A', attempts: 2 });
    const listed = await t.admin('GET', `/licenses?sharing=suspected&productId=${product.id}&limit=10`);
    expect(listed.json.map((l: { id: string }) => l.id)).toEqual([license.id]);
    expect(listed.headers['x-total-count']).toBe('1');

    // Clearing: licenses:write, audited, 409 when not suspected, a new window.
    const reader = await staffWith(t, ['licenses:read']);
    expect((await t.req('POST', `/licenses/${license.id}/sharing/clear`, { token: reader.token })).status).toBe(403);
    expect((await t.admin('POST', `/licenses/${license.id}/sharing/clear`)).status).toBe(204);
    expect(await t.admin('POST', `/licenses/${license.id}/sharing/clear`)).toMatchObject({ status: 409, json: { error: 'License is not suspected of sharing' } });
    expect((await t.admin('POST', '/licenses/AAAAA-BBBBB-CCCCC-DDDDD-EEEEE/sharing/clear')).status).toBe(404);
    expect((await auditEntries(t, 'licenses.sharing.clear')).some((e: { data: string }) => JSON.parse(e.data).licenseId === license.id)).toBe(true);
    const cleared = await readLicense(t, license.id);
    expect(cleared.sharingSuspectedAtEpochMillis).toBeNull();
    expect(cleared.version).toBe(license.version);
    for (const hwid of ['HW-A', 'HW-F']) await validateFrom('192.0.2.4', args(hwid));
    expect((await readLicense(t, license.id)).sharingSuspectedAtEpochMillis).toBeNull(); // two in the new window
    await validateFrom('192.0.2.4', args('HW-G'));
    expect((await readLicense(t, license.id)).sharingSuspectedAtEpochMillis).toEqual(expect.any(Number));
    expect(await suspectedEntries(license.id)).toHaveLength(2);
    await t.admin('DELETE', `/webhook-endpoints/${endpoint.json.id}`);
  });

  it("a license's own alert replaces the product's; without either nothing is counted", async () => {
    const product = await createProduct(t);
    const own = await newLicense(t, { productId: product.id, sharingAlert: { distinctIps: 1, windowHours: 2 } });
    const plain = await newLicense(t, { productId: product.id });
    for (const ip of ['198.51.100.1', '198.51.100.2']) {
      await validateFrom(ip, { licenseId: own.id, productId: product.id, hwid: 'HW' });
      await validateFrom(ip, { licenseId: plain.id, productId: product.id, hwid: 'HW' });
    }
    expect((await readLicense(t, own.id)).sharingSuspectedAtEpochMillis).toEqual(expect.any(Number));
    expect((await readLicense(t, plain.id)).sharingSuspectedAtEpochMillis).toBeNull();
    expect((await t.admin('GET', `/licenses/${plain.id}/sharing`)).json).toMatchObject({ alert: null, alertSource: null, distinctIps: null });
    expect((await t.admin('GET', '/licenses/AAAAA-BBBBB-CCCCC-DDDDD-EEEEE/sharing')).status).toBe(404);
  });

  it('a sharing alert changed on this instance is in force when its answer arrives (create, PUT, PATCH, delete; products and licenses)', async () => {
    // Each check runs right after the answer: the settings poll (once a second) would be too late.
    const alert = (licenseId: string, productId: string) => t.app.sharing.alertFor(licenseId, productId);
    const product = await createProduct(t, { sharingAlert: { distinctIps: 3, windowHours: 5 } });
    const license = await newLicense(t, { productId: product.id });
    expect(alert(license.id, product.id)).toEqual({ distinctIps: 3, windowHours: 5 });
    expect((await t.admin('PATCH', `/products/${product.id}`, { body: { sharingAlert: { distinctHwids: 4, windowHours: 6 } } })).status).toBe(200);
    expect(alert(license.id, product.id)).toEqual({ distinctHwids: 4, windowHours: 6 });
    expect((await t.admin('PUT', `/products/${product.id}`, { body: productBody({ sharingAlert: { distinctIps: 7, windowHours: 8 } }) })).status).toBe(200);
    expect(alert(license.id, product.id)).toEqual({ distinctIps: 7, windowHours: 8 });
    expect((await t.admin('PUT', `/licenses/${license.id}`, { body: putBody(license, { sharingAlert: { distinctIps: 1, windowHours: 2 } }) })).status).toBe(200);
    expect(alert(license.id, product.id)).toEqual({ distinctIps: 1, windowHours: 2 });
    expect((await t.admin('PATCH', `/licenses/${license.id}`, { body: { sharingAlert: null } })).status).toBe(200);
    expect(alert(license.id, product.id)).toEqual({ distinctIps: 7, windowHours: 8 }); // the product's again
    const own = await newLicense(t, { productId: product.id, sharingAlert: { distinctHwids: 9, windowHours: 10 } });
    expect(alert(own.id, product.id)).toEqual({ distinctHwids: 9, windowHours: 10 });
    expect((await t.admin('DELETE', `/licenses/${own.id}`)).status).toBe(204);
    expect(alert(own.id, product.id)).toEqual({ distinctIps: 7, windowHours: 8 });
    expect((await t.admin('PATCH', `/products/${product.id}`, { body: { sharingAlert: null } })).status).toBe(200);
    expect(alert(license.id, product.id)).toBeNull();
  });
});
