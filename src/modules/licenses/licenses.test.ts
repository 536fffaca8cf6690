import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LICENSE_KEY_PATTERN } from '../../lib/ids.js';
import { auditEntries, createCustomer, newLicense, createProduct, putBody, readLicense } from '../../../test/helpers/fixtures.js';
import { DIALECTS, startTestApp, type TestApp } from '../../../test/helpers/test-app.js';
import type { License } from './licenses.schemas.js';

describe.each(DIALECTS)('licenses CRUD (%s)', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(dialect);
  });
  afterAll(() => t.close());

  it('issues a license: key-format id, version 1, nothing bound, readable and listed', async () => {
    const product = await createProduct(t);
    const customer = await createCustomer(t);
    const expires = Date.now() + 86_400_000;
    const res = await t.admin('POST', '/licenses', {
      body: { productId: product.id, customerId: customer.id, expiresAtEpochMillis: expires, maxIps: 2, maxHwids: 1 },
    });
    expect(res.status).toBe(201);
    const license = res.json as License;
    expect(license.id).toMatch(new RegExp(LICENSE_KEY_PATTERN));
    expect(license).toMatchObject({
      productId: product.id,
      customerId: customer.id,
      expiresAtEpochMillis: expires,
      maxIps: 2,
      maxHwids: 1,
      usedIps: [],
      usedHwids: [],
      version: 1,
      validationAttempts: [],
    });
    expect(Math.abs(license.createdAtEpochMillis - Date.now())).toBeLessThan(5000);
    expect((await t.admin('GET', `/licenses/${license.id}`)).json).toEqual(license);
    const list = await t.admin('GET', '/licenses');
    expect(list.status).toBe(200);
    expect(list.json).toContainEqual(license);
  });

  it('inherits omitted limits from the product; explicit null or numbers override; later product changes do not matter', async () => {
    const product = await createProduct(t, { maxIps: 2, maxHwids: 4 });
    const customer = await createCustomer(t);
    const base = { productId: product.id, customerId: customer.id };
    const create = async (body: Record<string, unknown>) => (await t.admin('POST', '/licenses', { body: { ...base, ...body } })).json as License;
    const inherited = await create({});
    expect([inherited.maxIps, inherited.maxHwids, inherited.expiresAtEpochMillis]).toEqual([2, 4, null]);
    const nulls = await create({ maxIps: null, maxHwids: null });
    expect([nulls.maxIps, nulls.maxHwids]).toEqual([null, null]);
    const numbers = await create({ maxIps: 7, maxHwids: 0 });
    expect([numbers.maxIps, numbers.maxHwids]).toEqual([7, 0]);
    const mixed = await create({ maxIps: null });
    expect([mixed.maxIps, mixed.maxHwids]).toEqual([null, 4]);

    const productNow = (await t.admin('GET', `/products/${product.id}`)).json;
    const { id: _id, createdAtEpochMillis: _c, ...productBody } = productNow;
    expect((await t.admin('PUT', `/products/${product.id}`, { body: { ...productBody, maxIps: 9, maxHwids: 9 } })).status).toBe(200);
    const after = await readLicense(t, inherited.id);
    expect([after.maxIps, after.maxHwids]).toEqual([2, 4]);
    expect([(await create({})).maxIps]).toEqual([9]);
  });

  it('rejects bad create bodies with 400 naming the field, and unknown references with 400', async () => {
    const product = await createProduct(t);
    const customer = await createCustomer(t);
    const post = (body: unknown) => t.admin('POST', '/licenses', { body });
    const cases: [unknown, string][] = [
      [{ customerId: customer.id }, 'productId'],
      [{ productId: product.id }, 'customerId'],
      [{ productId: product.id, customerId: customer.id, maxIps: -1 }, 'maxIps'],
      [{ productId: product.id, customerId: customer.id, maxHwids: 1.5 }, 'maxHwids'],
      [{ productId: product.id, customerId: customer.id, maxIps: '2' }, 'maxIps'],
      [{ productId: product.id, customerId: customer.id, expiresAtEpochMillis: 'tomorrow' }, 'expiresAtEpochMillis'],
      [{ productId: 5, customerId: customer.id }, 'productId'],
    ];
    for (const [body, field] of cases) {
      const res = await post(body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.json.error).toContain(field);
    }
    const unknownProduct = await post({ productId: 'nope', customerId: customer.id });
    expect(unknownProduct.status).toBe(400);
    expect(unknownProduct.json).toEqual({ error: 'Unknown productId: nope' });
    const unknownCustomer = await post({ productId: product.id, customerId: 'nope' });
    expect(unknownCustomer.json).toEqual({ error: 'Unknown customerId: nope' });
  });

  it('answers 404 License not found for unknown ids of any form on GET, PUT and DELETE', async () => {
    const license = await newLicense(t);
    for (const id of ['ZZZZZ-ZZZZZ-ZZZZZ-ZZZZZ-ZZZZZ', '0190f0f0-0000-7000-8000-000000000000', "' OR '1'='1", 'x'.repeat(2000), 'a\u0000b']) {
      const path = `/licenses/${encodeURIComponent(id)}`;
      for (const res of [await t.admin('GET', path), await t.admin('PUT', path, { body: putBody(license) }), await t.admin('DELETE', path)]) {
        expect(res.status).toBe(404);
        expect(res.json).toEqual({ error: 'License not found' });
      }
    }
  });

  it('PUT replaces the record: omitted fields cleared, lists authoritative, version + 1, id and createdAt kept', async () => {
    const license = await newLicense(t, { maxIps: 2, maxHwids: 2, expiresAtEpochMillis: Date.now() + 60_000 });
    const attempts = [
      { hwid: 'h2', ip: '10.0.0.2', timestampEpochMillis: 2000, successful: false, reason: 'IP_LIMIT_REACHED' },
      { hwid: 'h1', ip: '10.0.0.1', timestampEpochMillis: 1000, successful: true },
    ];
    const full = await t.admin('PUT', `/licenses/${license.id}`, {
      body: putBody(license, { maxIps: 5, usedIps: ['10.0.0.1', '10.0.0.2', '10.0.0.1'], usedHwids: ['h1'], validationAttempts: attempts }),
    });
    expect(full.status).toBe(200);
    expect(full.json).toMatchObject({
      id: license.id,
      createdAtEpochMillis: license.createdAtEpochMillis,
      version: 2,
      maxIps: 5,
      usedIps: ['10.0.0.1', '10.0.0.2'],
      usedHwids: ['h1'],
      validationAttempts: [
        { hwid: 'h1', ip: '10.0.0.1', timestampEpochMillis: 1000, successful: true, reason: 'VALID' },
        { hwid: 'h2', ip: '10.0.0.2', timestampEpochMillis: 2000, successful: false, reason: 'IP_LIMIT_REACHED' },
      ],
    });
    expect(await readLicense(t, license.id)).toEqual(full.json);

    const minimal = await t.admin('PUT', `/licenses/${license.id}`, {
      body: { productId: license.productId, customerId: license.customerId, version: 2, usedIps: ['10.0.0.2'] },
    });
    expect(minimal.status).toBe(200);
    expect(minimal.json).toEqual({
      ...license,
      expiresAtEpochMillis: null,
      maxIps: null,
      maxHwids: null,
      usedIps: ['10.0.0.2'],
      usedHwids: [],
      // a value the PUT keeps keeps its times
      bindings: { ips: [full.json.bindings.ips[1]], hwids: [] },
      validationAttempts: [],
      version: 3,
    });
    // a value a PUT adds is first and last seen at the PUT
    const added = full.json.bindings.ips[1];
    expect(added).toEqual({ value: '10.0.0.2', firstSeenAtEpochMillis: expect.any(Number), lastSeenAtEpochMillis: added.firstSeenAtEpochMillis });
    expect(Math.abs(added.firstSeenAtEpochMillis - Date.now())).toBeLessThan(60_000);
  });

  it('PUT checks in order: 400 schema, 404, 400 unknown reference, 409 version with the stored version named', async () => {
    const license = await newLicense(t);
    const path = `/licenses/${license.id}`;
    const noVersion = await t.admin('PUT', path, { body: { productId: license.productId, customerId: license.customerId } });
    expect(noVersion.status).toBe(400);
    expect(noVersion.json.error).toContain('version');
    expect((await t.admin('PUT', path, { body: putBody(license, { productId: 'gone', version: 7 }) })).json).toEqual({
      error: 'Unknown productId: gone',
    });
    expect((await t.admin('PUT', path, { body: putBody(license, { customerId: 'gone' }) })).status).toBe(400);
    expect((await t.admin('PUT', path, { body: putBody(license) })).status).toBe(200);
    const stale = await t.admin('PUT', path, { body: putBody(license, { maxIps: 9 }) });
    expect(stale.status).toBe(409);
    expect(stale.json).toEqual({ error: 'Version conflict: expected 2, got 1' });
    const stored = await readLicense(t, license.id);
    expect([stored.version, stored.maxIps]).toEqual([2, null]);
    const contradiction = await t.admin('PUT', path, {
      body: putBody(stored, { validationAttempts: [{ hwid: 'h', ip: '1.2.3.4', timestampEpochMillis: 1, successful: false, reason: 'VALID' }] }),
    });
    expect(contradiction.status).toBe(400);
    expect(contradiction.json.error).toContain('validationAttempts.0.reason');
  });

  it('of concurrent PUTs carrying the same version exactly one succeeds and the rest get 409', async () => {
    const license = await newLicense(t);
    const results = await Promise.all(
      Array.from({ length: 12 }, (_, i) => t.admin('PUT', `/licenses/${license.id}`, { body: putBody(license, { maxIps: i }) })),
    );
    const statuses = results.map((r) => r.status).sort();
    expect(statuses).toEqual([200, ...Array(11).fill(409)]);
    for (const r of results.filter((x) => x.status === 409)) expect(r.json).toEqual({ error: 'Version conflict: expected 2, got 1' });
    const winner = results.find((r) => r.status === 200)!.json as License;
    expect(await readLicense(t, license.id)).toMatchObject({ version: 2, maxIps: winner.maxIps });
  });

  it('DELETE is 204 with an empty body, removes the license from orders, and later requests are 404', async () => {
    const license = await newLicense(t);
    const order = await t.admin('POST', '/orders', {
      body: { customerId: license.customerId, productIds: [license.productId], totalAmount: 5, licenseIds: [license.id] },
    });
    expect(order.status).toBe(201);
    const res = await t.admin('DELETE', `/licenses/${license.id}`);
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    expect((await t.admin('GET', `/licenses/${license.id}`)).status).toBe(404);
    expect((await t.admin('GET', `/orders/${order.json.id}`)).json.licenseIds).toEqual([]);
  });

  it('lists every license by default, filters by customerId and productId, pages with limit/offset', async () => {
    const customer = await createCustomer(t);
    const productA = await createProduct(t);
    const productB = await createProduct(t);
    const a1 = await newLicense(t, { customerId: customer.id, productId: productA.id });
    const b1 = await newLicense(t, { customerId: customer.id, productId: productB.id });
    const a2 = await newLicense(t, { customerId: customer.id, productId: productA.id });
    await t.admin('PUT', `/licenses/${b1.id}`, { body: putBody(b1, { usedIps: ['1.1.1.1'], usedHwids: ['hw'] }) });
    const ids = async (query: string) => ((await t.admin('GET', `/licenses${query}`)).json as License[]).map((l) => l.id);
    expect(await ids(`?customerId=${customer.id}`)).toEqual([a1.id, b1.id, a2.id]);
    expect(await ids(`?customerId=${customer.id}&productId=${productA.id}`)).toEqual([a1.id, a2.id]);
    expect(await ids(`?customerId=${customer.id}&limit=2`)).toEqual([a1.id, b1.id]);
    expect(await ids(`?customerId=${customer.id}&limit=1&offset=1`)).toEqual([b1.id]);
    expect(await ids(`?customerId=${customer.id}&offset=2`)).toEqual([a2.id]);
    expect(await ids('?customerId=nobody')).toEqual([]);
    const listed = (await t.admin('GET', `/licenses?customerId=${customer.id}`)).json as License[];
    expect(listed[1]).toMatchObject({ usedIps: ['1.1.1.1'], usedHwids: ['hw'], version: 2 });
    expect(listed[0]).toMatchObject({ usedIps: [], usedHwids: [] });
    expect((await t.admin('GET', '/licenses?limit=0')).status).toBe(400);
    const all = await ids('');
    expect(all).toEqual(expect.arrayContaining([a1.id, b1.id, a2.id]));
  });

  it('writes licenses.create, licenses.update and licenses.delete with the snapshot, and nothing for failed requests', async () => {
    const license = await newLicense(t, { maxIps: 3 });
    const findEntry = async (name: string) =>
      (await auditEntries(t, name)).find((e) => (JSON.parse(e.data) as { id: string }).id === license.id);
    const created = await findEntry('licenses.create');
    expect(created?.performedBy).toBe('root');
    const { validationAttempts: _a, ...snapshot } = license;
    expect(JSON.parse(created!.data)).toEqual({ ...snapshot, validationAttemptCount: 0 });

    const before = (await auditEntries(t)).length;
    expect((await t.admin('PUT', `/licenses/${license.id}`, { body: putBody(license, { version: 5 }) })).status).toBe(409);
    expect((await t.admin('PUT', `/licenses/${license.id}`, { body: putBody(license, { productId: 'x' }) })).status).toBe(400);
    expect((await t.admin('POST', '/licenses', { body: { productId: 'x', customerId: 'y' } })).status).toBe(400);
    expect((await t.admin('DELETE', '/licenses/unknown')).status).toBe(404);
    expect((await auditEntries(t)).length).toBe(before);
    expect((await readLicense(t, license.id)).version).toBe(1);

    const updated = (await t.admin('PUT', `/licenses/${license.id}`, { body: putBody(license, { usedIps: ['9.9.9.9'] }) })).json;
    expect(JSON.parse((await findEntry('licenses.update'))!.data)).toMatchObject({ version: 2, usedIps: ['9.9.9.9'] });
    expect((await t.admin('DELETE', `/licenses/${license.id}`)).status).toBe(204);
    expect(JSON.parse((await findEntry('licenses.delete'))!.data)).toMatchObject({ id: updated.id, version: 2 });
  });
});
