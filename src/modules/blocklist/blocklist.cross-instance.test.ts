// Two instances on one database (DECISIONS.md "Blocklist and shared-key detection"): a rule
// change is in force at once where it was made and within a second on the other; hits of
// both add up; `blocklist.hit` events are queued at most once a minute per rule across
// both; the sharing detector counts the distinct values both saw and fires once.
import { describe, expect, it } from 'vitest';
import { auditEntries, createProduct, newLicense, readLicense } from '../../../test/helpers/fixtures.js';
import { DIALECTS, type TestApp } from '../../../test/helpers/test-app.js';
import { startTwoInstances } from '../../../test/helpers/two-instances.js';
import { until } from '../../../test/helpers/until.js';

const ENV = { VALIDATION_RATE_LIMIT: '100000', TRUST_PROXY: 'true', WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true' };

describe.each(DIALECTS)('leak defence across two instances (%s)', (dialect) => {
  let a: TestApp;
  let b: TestApp;
  startTwoInstances(dialect, ENV, (started) => ({ a, b } = started));

  const validateOn = (t: TestApp, ip: string, body: Record<string, unknown>) =>
    t.req('POST', '/licenses/validate', { body, headers: { 'x-forwarded-for': ip } });

  it('a rule created on one instance refuses there at once and on the other within a second; deleting it lifts it alike', async () => {
    const license = await newLicense(a);
    const args = { licenseId: license.id, productId: license.productId, hwid: 'HW-X' };
    expect((await validateOn(b, '203.0.113.40', args)).json).toEqual({ valid: true });
    // Asked in process (no HTTP round trip): when the other instance's index has the change.
    const presented = { ip: '203.0.113.40', hwid: 'HW-X', licenseId: license.id, productId: license.productId };
    const inForceWithin = async (t: TestApp, blocked: boolean, since: number) => {
      const what = blocked ? 'the rule in force on the other instance' : 'the rule lifted on the other instance';
      await until(what, () => t.app.blocklist.check(presented), (now) => now === blocked, { timeoutMs: 1000 - (Date.now() - since), everyMs: 10 });
      return Date.now() - since;
    };
    const created = await a.admin('POST', '/blocklist', { body: { type: 'ip', value: '203.0.113.40' } });
    const at = Date.now();
    expect((await validateOn(a, '203.0.113.40', args)).json).toEqual({ valid: false });
    expect(await inForceWithin(b, true, at)).toBeLessThan(1000);
    expect((await validateOn(b, '203.0.113.40', args)).json).toEqual({ valid: false });
    expect((await readLicense(a, license.id)).validationAttempts.at(-1)).toMatchObject({ reason: 'BLOCKED' });

    expect((await b.admin('DELETE', `/blocklist/${created.json.id}`)).status).toBe(204);
    const deletedAt = Date.now();
    expect((await validateOn(b, '203.0.113.40', args)).json).toEqual({ valid: true });
    expect(await inForceWithin(a, false, deletedAt)).toBeLessThan(1000);
    expect((await validateOn(a, '203.0.113.40', args)).json).toEqual({ valid: true });
  });

  it('hits of both instances add up; one blocklist.hit event a minute per rule across both', async () => {
    const endpoint = await a.admin('POST', '/webhook-endpoints', { body: { url: 'http://127.0.0.1:9/hook', events: ['blocklist.hit'], enabled: true } });
    expect(endpoint.status).toBe(201);
    await b.app.webhookSubscriptions.reload();
    const license = await newLicense(a);
    const created = await a.admin('POST', '/blocklist', { body: { type: 'hwid', value: 'HW-HITS', mode: 'flag' } });
    await b.app.blocklist.reload();
    const args = { licenseId: license.id, productId: license.productId, hwid: 'HW-HITS' };
    for (let i = 0; i < 3; i++) expect((await validateOn(a, '198.51.100.1', args)).json).toEqual({ valid: true });
    for (let i = 0; i < 2; i++) expect((await validateOn(b, '198.51.100.2', args)).json).toEqual({ valid: true });
    await Promise.all([a.app.blocklist.flushHits(), b.app.blocklist.flushHits()]);
    await validateOn(b, '198.51.100.3', args);
    await Promise.all([a.app.blocklist.flushHits(), b.app.blocklist.flushHits()]);
    const rule = (await a.admin('GET', `/blocklist/${created.json.id}`)).json;
    expect(rule).toMatchObject({ hits: 6, lastHitAtEpochMillis: expect.any(Number) });
    const events = await a.app.db.selectFrom('webhook_outbox').select('body').where('type', '=', 'blocklist.hit').execute();
    const ofRule = events.map((e) => JSON.parse(e.body)).filter((e) => e.data.id === created.json.id);
    expect(ofRule).toHaveLength(1);
    expect(ofRule[0].data).toMatchObject({ id: created.json.id, type: 'hwid', value: 'HW-HITS', licenseId: license.id, hwid: 'HW-HITS', ip: expect.any(String) });
    expect(ofRule[0].data.hits).toBeGreaterThanOrEqual(1); // the rule's hits when the event was queued (a timer may flush the first hit alone)
    await a.admin('DELETE', `/webhook-endpoints/${endpoint.json.id}`);
  });

  it('the sharing detector counts the distinct IPs both instances saw and marks the license once', async () => {
    const product = await createProduct(a, { sharingAlert: { distinctIps: 3, windowHours: 1 } });
    const license = await newLicense(a, { productId: product.id });
    await b.app.sharing.reloadSettings();
    const args = { licenseId: license.id, productId: product.id, hwid: 'HW-S' };
    await Promise.all([validateOn(a, '192.0.2.101', args), validateOn(b, '192.0.2.102', args), validateOn(a, '192.0.2.103', args)]);
    await validateOn(b, '192.0.2.101', args); // seen already: still three
    expect((await readLicense(a, license.id)).sharingSuspectedAtEpochMillis).toBeNull();
    await Promise.all([validateOn(b, '192.0.2.104', args), validateOn(a, '192.0.2.105', args)]);
    const suspected = await readLicense(b, license.id);
    expect(suspected.sharingSuspectedAtEpochMillis).toEqual(expect.any(Number));
    const entries = (await auditEntries(a, 'licenses.sharing.suspected')).map((e: { data: string }) => JSON.parse(e.data)).filter((d: { licenseId: string }) => d.licenseId === license.id);
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ licenseId: license.id, windowHours: 1, distinctHwids: 1 });
    expect(entries[0].distinctIps).toBeGreaterThan(3);
  });
});
