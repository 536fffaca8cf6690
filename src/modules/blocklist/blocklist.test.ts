// The blocklist (DECISIONS.md "Blocklist and shared-key detection"): CRUD with its checks
// and audit, and what a rule does to validation and self-service release, on both databases.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEntries, createProduct, newLicense, readLicense, staffWith } from '../../../test/helpers/fixtures.js';
import { useTestClock } from '../../../test/helpers/clock.js';
import { DIALECTS, startTestApp, type TestApp } from '../../../test/helpers/test-app.js';

const ENV = { VALIDATION_RATE_LIMIT: '100000', TRUST_PROXY: 'true' };

describe.each(DIALECTS)('blocklist (%s)', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(dialect, ENV);
  });
  afterAll(() => t?.close());

  /** A validation as if from `ip` (through a trusted proxy). */
  const validateFrom = (ip: string, body: Record<string, unknown>) =>
    t.req('POST', '/licenses/validate', { body, headers: { 'x-forwarded-for': ip } });
  const rule = (body: Record<string, unknown>) => t.admin('POST', '/blocklist', { body });
  const lastAttempt = async (id: string) => (await readLicense(t, id)).validationAttempts.at(-1);
  const flushed = async (id: string) => {
    await t.app.blocklist.flushHits();
    return (await t.admin('GET', `/blocklist/${id}`)).json;
  };

  it('creates normalised rules, answers them, audits create/update/delete; 409 for the same type, value and scope', async () => {
    const created = await rule({ type: 'cidr', value: '10.1.2.3/8', note: 'forum leak' });
    expect(created.status).toBe(201);
    expect(created.json).toMatchObject({
      type: 'cidr', value: '10.0.0.0/8', scope: 'everything', productId: null, licenseId: null, mode: 'block',
      expiresAtEpochMillis: null, note: 'forum leak', hits: 0, lastHitAtEpochMillis: null, createdBy: 'root',
    });
    for (const [type, value, normalised] of [
      ['ip', '2001:DB8:0:0:0:0:0:7', '2001:db8::7'],
      ['ip', '::ffff:198.51.100.9', '198.51.100.9'],
      ['cidr', '2001:db9:ffff::1/32', '2001:db9::/32'],
      ['cidr', '::ffff:100.64.1.0/120', '100.64.1.0/24'],
    ] as const) {
      expect((await rule({ type, value })).json).toMatchObject({ type, value: normalised });
    }
    // The same type, normalised value and scope again: 409 whatever the mode; nothing added.
    const before = (await t.admin('GET', '/blocklist?limit=1')).headers['x-total-count'];
    expect(await rule({ type: 'cidr', value: '10.200.0.0/8', mode: 'flag' })).toMatchObject({ status: 409, json: { error: expect.stringContaining('10.0.0.0/8') } });
    expect(await rule({ type: 'ip', value: '::ffff:c633:6409' })).toMatchObject({ status: 409 });
    expect((await t.admin('GET', '/blocklist?limit=1')).headers['x-total-count']).toBe(before);

    const patched = await t.admin('PATCH', `/blocklist/${created.json.id}`, { body: { mode: 'flag', note: null } });
    expect(patched.json).toMatchObject({ id: created.json.id, mode: 'flag', note: null, value: '10.0.0.0/8' });
    expect((await t.admin('DELETE', `/blocklist/${created.json.id}`)).status).toBe(204);
    expect((await t.admin('GET', `/blocklist/${created.json.id}`)).status).toBe(404);
    const entries = (await auditEntries(t)).filter((e: { name: string }) => e.name.startsWith('blocklist.'));
    const mine = entries.filter((e: { data: string }) => JSON.parse(e.data).id === created.json.id).map((e: { name: string }) => e.name);
    expect(mine).toEqual(['blocklist.delete', 'blocklist.update', 'blocklist.create']);
  });

  it('bad input is 400 naming the field and changes nothing', async () => {
    const product = await createProduct(t);
    const before = (await t.admin('GET', '/blocklist?limit=1')).headers['x-total-count'];
    const cases: [Record<string, unknown>, string][] = [
      [{ type: 'cidr', value: '10.0.0.0/33' }, 'value'],
      [{ type: 'cidr', value: '::ffff:1.2.3.4/200' }, 'value'],
      [{ type: 'cidr', value: '10.0.0.1' }, 'value'],
      [{ type: 'ip', value: '10.0.0.0/8' }, 'value'],
      [{ type: 'ip', value: '256.1.1.1' }, 'value'],
      [{ type: 'ip', value: '' }, 'value'],
      [{ type: 'hwid', value: '' }, 'value'],
      [{ type: 'hwid', value: '   ' }, 'value'],
      [{ type: 'hwid', value: 'x'.repeat(10_240) }, 'value'],
      [{ type: 'ip', value: '1'.repeat(10_240) }, 'value'],
      [{ type: 'country', value: 'FI' }, 'type'],
      [{ type: 'ip' }, 'value'],
      [{ type: 'ip', value: '192.0.2.1', mode: 'deny' }, 'mode'],
      [{ type: 'ip', value: '192.0.2.1', productId: 'no-such-product' }, 'productId'],
      [{ type: 'ip', value: '192.0.2.1', licenseId: 'AAAAA-BBBBB-CCCCC-DDDDD-EEEEE' }, 'licenseId'],
      [{ type: 'ip', value: '192.0.2.1', expiresAtEpochMillis: Date.now() - 1000 }, 'expiresAtEpochMillis'],
      [{ type: 'ip', value: '192.0.2.1', note: 'n'.repeat(1001) }, 'note'],
    ];
    for (const [body, field] of cases) {
      const res = await rule(body);
      expect(res.status, JSON.stringify(body).slice(0, 80)).toBe(400);
      expect(res.json.error).toContain(field);
    }
    expect((await rule({ type: 'ip', value: '192.0.2.1', productId: 'no-such-product' })).json.error).toBe('Unknown productId: no-such-product');
    const created = await rule({ type: 'ip', value: '192.0.2.1', productId: product.id });
    expect(created.json).toMatchObject({ scope: 'product', productId: product.id });
    for (const [body, field] of [
      [{ type: 'hwid' }, 'type'],
      [{ value: '192.0.2.2' }, 'value'],
      [{ productId: null }, 'productId'],
      [{ expiresAtEpochMillis: 1 }, 'expiresAtEpochMillis'],
    ] as const) {
      const res = await t.admin('PATCH', `/blocklist/${created.json.id}`, { body });
      expect(res.status).toBe(400);
      expect(res.json.error).toContain(field);
    }
    expect((await t.admin('GET', `/blocklist/${created.json.id}`)).json).toEqual(created.json);
    expect(Number((await t.admin('GET', '/blocklist?limit=1')).headers['x-total-count'])).toBe(Number(before) + 1);
    expect((await t.admin('PATCH', '/blocklist/nope', { body: { mode: 'flag' } })).status).toBe(404);
    expect((await t.admin('DELETE', '/blocklist/nope')).status).toBe(404);
  });

  it('needs blocklist:read / blocklist:write', async () => {
    const reader = await staffWith(t, ['blocklist:read']);
    const none = await staffWith(t, ['licenses:read']);
    expect((await t.req('GET', '/blocklist', { token: reader.token })).status).toBe(200);
    expect((await t.req('GET', '/blocklist', { token: none.token })).status).toBe(403);
    expect((await t.req('POST', '/blocklist', { token: reader.token, body: { type: 'ip', value: '192.0.2.50' } })).status).toBe(403);
    const writer = await staffWith(t, ['blocklist:write']);
    expect((await t.req('POST', '/blocklist', { token: writer.token, body: { type: 'ip', value: '192.0.2.50' } })).status).toBe(201);
  });

  it('a block rule refuses with reason BLOCKED before anything is bound; a flag counts hits only; expiry and delete lift it', async () => {
    const license = await newLicense(t, { maxIps: 1, maxHwids: 1 });
    const args = { licenseId: license.id, productId: license.productId, hwid: 'HW-LEAK' };
    const block = await rule({ type: 'hwid', value: 'HW-LEAK', licenseId: license.id });
    expect(block.json).toMatchObject({ scope: 'license', licenseId: license.id });
    expect((await validateFrom('203.0.113.10', args)).json).toEqual({ valid: false });
    const refused = await readLicense(t, license.id);
    expect(refused.usedIps).toEqual([]);
    expect(refused.usedHwids).toEqual([]);
    expect(refused.validationAttempts.at(-1)).toMatchObject({ reason: 'BLOCKED', successful: false, hwid: 'HW-LEAK', ip: '203.0.113.10' });
    // Another HWID of the same license is not blocked; the same HWID on another license is not either (scope).
    expect((await validateFrom('203.0.113.10', { ...args, hwid: 'HW-BUYER' })).json).toEqual({ valid: true });
    const other = await newLicense(t);
    expect((await validateFrom('203.0.113.11', { licenseId: other.id, productId: other.productId, hwid: 'HW-LEAK' })).json).toEqual({ valid: true });
    expect(await flushed(block.json.id)).toMatchObject({ hits: 1, lastHitAtEpochMillis: expect.any(Number) });

    // flag: the answer is unchanged, hits count
    await t.admin('PATCH', `/blocklist/${block.json.id}`, { body: { mode: 'flag' } });
    expect((await validateFrom('203.0.113.10', args)).json).toEqual({ valid: false }); // the HWID slot is the buyer's
    expect(await lastAttempt(license.id)).toMatchObject({ reason: 'HWID_LIMIT_REACHED' });
    expect(await flushed(block.json.id)).toMatchObject({ hits: 2 });

    // an IP rule for the product blocks the buyer's own machine too, until it expires
    const time = useTestClock();
    const ipRule = await rule({ type: 'ip', value: '203.0.113.10', productId: license.productId, expiresAtEpochMillis: time.now() + 1500 });
    const buyer = { ...args, hwid: 'HW-BUYER' };
    expect((await validateFrom('203.0.113.10', buyer)).json).toEqual({ valid: false });
    expect(await lastAttempt(license.id)).toMatchObject({ reason: 'BLOCKED' });
    time.advance(1500); // the clock reaches the rule's expiry
    expect((await validateFrom('203.0.113.10', buyer)).json).toEqual({ valid: true });
    expect(await flushed(ipRule.json.id)).toMatchObject({ hits: 1 });
    expect((await t.admin('GET', '/blocklist?status=expired')).json.map((r: { id: string }) => r.id)).toContain(ipRule.json.id);
  });

  it('a license that reveals reasons answers BLOCKED; a blocked first validation starts no expiry clock', async () => {
    const license = await newLicense(t, { revealReasons: true, expiryBasis: 'firstValidation', validForDays: 30 });
    const args = { licenseId: license.id, productId: license.productId, hwid: 'HW-REVEAL' };
    await rule({ type: 'hwid', value: 'HW-REVEAL', licenseId: license.id });
    expect((await validateFrom('192.0.2.90', args)).json).toEqual({ valid: false, reason: 'BLOCKED' });
    expect(await readLicense(t, license.id)).toMatchObject({ expiresAtEpochMillis: null, expiryStartedAtEpochMillis: null, usedHwids: [], usedIps: [] });
    expect((await validateFrom('192.0.2.90', { ...args, hwid: 'HW-OK' })).json).toEqual({ valid: true, reason: 'VALID' });
    expect((await readLicense(t, license.id)).expiryStartedAtEpochMillis).toEqual(expect.any(Number));
  });

  it('a flush asked for while another is writing waits for it, then writes the hits counted since', async () => {
    const license = await newLicense(t);
    const flagged = await rule({ type: 'hwid', value: 'HW-FLUSH-RACE', mode: 'flag' });
    const presented = { ip: '192.0.2.200', hwid: 'HW-FLUSH-RACE', licenseId: license.id, productId: license.productId };
    t.app.blocklist.check(presented); // hit 1
    const inFlight = t.app.blocklist.flushHits(); // takes hit 1
    t.app.blocklist.check(presented); // hit 2, counted while hit 1 is being written
    await t.app.blocklist.flushHits();
    expect((await t.admin('GET', `/blocklist/${flagged.json.id}`)).json).toMatchObject({ hits: 2 });
    await inFlight;
  });

  it('IPv4-mapped IPv6 addresses match IPv4 rules; CIDRs of both families match; unknown licenses from a blocked IP count hits', async () => {
    const license = await newLicense(t);
    const args = { licenseId: license.id, productId: license.productId, hwid: 'HW-1' };
    const v4 = await rule({ type: 'cidr', value: '198.18.0.0/15' });
    const v6 = await rule({ type: 'cidr', value: '2001:db8:aaaa::/48', mode: 'block' });
    expect((await validateFrom('::ffff:198.19.4.4', args)).json).toEqual({ valid: false });
    expect(await lastAttempt(license.id)).toMatchObject({ reason: 'BLOCKED', ip: '198.19.4.4' });
    expect((await validateFrom('2001:db8:aaaa:1::5', args)).json).toEqual({ valid: false });
    expect((await validateFrom('2001:db8:aaab::5', args)).json).toEqual({ valid: true });
    expect((await validateFrom('198.20.0.1', args)).json).toEqual({ valid: true });
    const unknown = { licenseId: 'AAAAA-BBBBB-CCCCC-DDDDD-EEEEE', productId: license.productId, hwid: 'HW-1' };
    expect((await validateFrom('198.18.1.1', unknown)).json).toEqual({ valid: false });
    expect(await flushed(v4.json.id)).toMatchObject({ hits: 2 });
    expect(await flushed(v6.json.id)).toMatchObject({ hits: 1 });
  });

  it('self-service release from a blocked IP or naming a blocked HWID is 403 Blocked and releases nothing', async () => {
    const license = await newLicense(t, { selfReleaseLimit: 3 });
    const args = { licenseId: license.id, productId: license.productId, hwid: 'HW-R' };
    expect((await validateFrom('192.0.2.77', args)).json).toEqual({ valid: true });
    const release = (ip: string, body: Record<string, unknown>) =>
      t.req('POST', '/licenses/release', { body: { licenseId: license.id, productId: license.productId, ...body }, headers: { 'x-forwarded-for': ip } });
    await rule({ type: 'ip', value: '192.0.2.200', licenseId: license.id });
    await rule({ type: 'hwid', value: 'HW-R', licenseId: license.id, mode: 'block' });
    expect(await release('192.0.2.200', { ip: '192.0.2.77' })).toMatchObject({ status: 403, json: { error: 'Blocked' } });
    expect(await release('192.0.2.5', { hwid: 'HW-R' })).toMatchObject({ status: 403, json: { error: 'Blocked' } });
    const after = await readLicense(t, license.id);
    expect(after).toMatchObject({ usedIps: ['192.0.2.77'], usedHwids: ['HW-R'], selfReleasesUsed: 0 });
    expect(await release('192.0.2.5', { ip: '192.0.2.77' })).toMatchObject({ status: 200, json: { releasedIps: ['192.0.2.77'] } });
  });

  it('lists paged, filtered and totalled', async () => {
    const product = await createProduct(t);
    for (const value of ['HW-L1', 'HW-L2', 'HW-L3']) await rule({ type: 'hwid', value, productId: product.id, mode: value === 'HW-L3' ? 'flag' : 'block' });
    const page = await t.admin('GET', `/blocklist?productId=${product.id}&limit=2&sort=value&order=desc`);
    expect(page.headers['x-total-count']).toBe('3');
    expect(page.json.map((r: { value: string }) => r.value)).toEqual(['HW-L3', 'HW-L2']);
    const flags = await t.admin('GET', `/blocklist?productId=${product.id}&mode=flag`);
    expect(flags.json.map((r: { value: string }) => r.value)).toEqual(['HW-L3']);
    expect((await t.admin('GET', '/blocklist?q=hw-l2&limit=5')).json.map((r: { value: string }) => r.value)).toEqual(['HW-L2']);
    expect((await t.admin('GET', '/blocklist?scope=product&type=hwid')).json.every((r: { productId: string | null }) => r.productId !== null)).toBe(true);
    expect((await t.admin('GET', '/blocklist?sort=nope')).status).toBe(400);
  });
});
