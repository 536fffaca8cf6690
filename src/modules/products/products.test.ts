import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createCustomer, createOrder, createProduct, insertLicenseRow, productBody, uniq,
} from '../../../test/helpers/fixtures.js';
import { auditEntryFor, expectRejected as expectRejectedAt, newestAuditId as newestAuditIdOf } from '../../../test/helpers/assertions.js';
import { expectPermissionMapping } from '../../../test/helpers/permissions.js';
import { DIALECTS, startTestApp, type TestApp } from '../../../test/helpers/test-app.js';

const OPTIONAL_NULLS = {
  description: null, recurringPeriodDays: null, maxIps: null, maxHwids: null, marketplaceResourceId: null, polymartProductId: null,
  slotTimeoutMinutes: null, selfReleaseLimit: null, sharingAlert: null,
  // License policies (DECISIONS.md): the defaults that keep SPEC.md's behaviour
  expiryBasis: 'fixed', validForDays: null, graceDays: null, features: {}, revealReasons: false,
  // Sales (docs/selling.md): no tiers
  tiers: [],
  // Releases: no updates window of its own, no version refused
  updatesForDays: null, refuseUnsupportedVersions: false,
};

describe.each(DIALECTS)('products (%s)', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(dialect);
  });
  afterAll(() => t.close());

  const newestAuditId = () => newestAuditIdOf(t);
  const entryFor = (name: string, id: string) => auditEntryFor(t, name, id);

  const expectRejected = (send: () => Promise<{ status: number; json: any }>, status: number, error: string | RegExp) =>
    expectRejectedAt(t, '/products', send, status, error);

  it('creates, reads, lists, replaces and deletes a product, auditing each change', async () => {
    const body = productBody({
      description: 'Desktop app', price: 49.5, isSubscription: true, recurringPeriodDays: 30, maxIps: 2, maxHwids: 0,
      marketplaceResourceId: uniq('res'),
    });
    const created = await t.admin('POST', '/products', { body });
    expect(created.status).toBe(201);
    const p = created.json;
    expect(p).toEqual({ id: expect.stringMatching(/^[0-9a-f-]{36}$/), ...OPTIONAL_NULLS, ...body, createdAtEpochMillis: expect.any(Number) });
    expect(Math.abs(p.createdAtEpochMillis - Date.now())).toBeLessThan(60_000);
    expect((await t.admin('GET', `/products/${p.id}`)).json).toEqual(p);
    expect((await t.admin('GET', '/products')).json).toContainEqual(p);

    const replacement = productBody({ price: 0, requiresLicense: false, maxIps: 5 });
    const put = await t.admin('PUT', `/products/${p.id}`, { body: replacement });
    expect(put.status).toBe(200);
    expect(put.json).toEqual({ ...OPTIONAL_NULLS, ...replacement, id: p.id, createdAtEpochMillis: p.createdAtEpochMillis });
    expect((await t.admin('GET', `/products/${p.id}`)).json).toEqual(put.json);

    const del = await t.admin('DELETE', `/products/${p.id}`);
    expect(del.status).toBe(204);
    expect(del.text).toBe('');
    expect((await t.admin('GET', `/products/${p.id}`)).json).toEqual({ error: 'Product not found' });

    for (const [name, snapshot] of [['products.create', p], ['products.update', put.json], ['products.delete', put.json]]) {
      const entry = await entryFor(name, p.id);
      expect(entry?.performedBy, name).toBe('root');
      expect(JSON.parse(entry!.data), name).toEqual(snapshot);
    }
  });

  it('answers null for every omitted optional field, on create and on PUT', async () => {
    const p = await createProduct(t, { description: 'd', recurringPeriodDays: 7, maxIps: 1, maxHwids: 1, marketplaceResourceId: uniq('r') });
    const bare = productBody();
    expect((await t.admin('POST', '/products', { body: bare })).json).toMatchObject({ ...bare, ...OPTIONAL_NULLS });
    const put = await t.admin('PUT', `/products/${p.id}`, { body: bare });
    expect(put.json).toEqual({ ...bare, ...OPTIONAL_NULLS, id: p.id, createdAtEpochMillis: p.createdAtEpochMillis });
    // Explicit nulls are accepted too.
    const nulls = await t.admin('PUT', `/products/${p.id}`, { body: { ...bare, ...OPTIONAL_NULLS } });
    expect(nulls.status).toBe(200);
  });

  it('rejects invalid bodies with a 400 naming the field, writing nothing', async () => {
    const post = (over: Record<string, unknown>, omit?: string) => () => {
      const body: Record<string, unknown> = productBody(over);
      if (omit) delete body[omit];
      return t.admin('POST', '/products', { body });
    };
    for (const field of ['name', 'productType', 'price', 'requiresLicense', 'isSubscription']) {
      await expectRejected(post({}, field), 400, `${field} is required`);
    }
    await expectRejected(post({ price: '5' }), 400, 'price must be number');
    await expectRejected(post({ price: -0.01 }), 400, 'price must be >= 0');
    await expectRejected(post({ requiresLicense: 'true' }), 400, 'requiresLicense must be boolean');
    await expectRejected(post({ isSubscription: 1 }), 400, 'isSubscription must be boolean');
    await expectRejected(post({ name: '' }), 400, /^name /);
    await expectRejected(post({ productType: 7 }), 400, /^productType /);
    await expectRejected(post({ description: 5 }), 400, /^description /);
    for (const field of ['maxIps', 'maxHwids', 'recurringPeriodDays']) {
      await expectRejected(post({ [field]: -1 }), 400, `${field} must be >= 0`);
      await expectRejected(post({ [field]: 1.5 }), 400, new RegExp(`^${field} must be integer`));
      await expectRejected(post({ [field]: '5' }), 400, new RegExp(`^${field} must be integer`));
      await expectRejected(post({ [field]: 2 ** 31 }), 400, new RegExp(`^${field} must be <=`));
    }
    await expectRejected(post({ marketplaceResourceId: 12 }), 400, /^marketplaceResourceId /);
    await expectRejected(post({ marketplaceResourceId: '' }), 400, /^marketplaceResourceId /);
    await expectRejected(post({ name: 'nul\u0000' }), 400, 'name must not contain NUL characters');
    // 1e400 parses to Infinity: amounts must stay finite.
    const infinite = '{"name":"p","productType":"s","price":1e400,"requiresLicense":true,"isSubscription":false}';
    await expectRejected(
      () => t.admin('POST', '/products', { rawBody: infinite, headers: { 'content-type': 'application/json' } }),
      400,
      /^price must be <=/,
    );
  });

  it('keeps marketplaceResourceId unique: 409 on create, update and under a race', async () => {
    const resourceId = uniq('res');
    const owner = await createProduct(t, { marketplaceResourceId: resourceId });
    const message = `marketplaceResourceId ${resourceId} is already used by another product`;
    await expectRejected(() => t.admin('POST', '/products', { body: productBody({ marketplaceResourceId: resourceId }) }), 409, message);
    const other = await createProduct(t);
    await expectRejected(
      () => t.admin('PUT', `/products/${other.id}`, { body: productBody({ marketplaceResourceId: resourceId }) }),
      409,
      message,
    );
    const again = await t.admin('PUT', `/products/${owner.id}`, { body: productBody({ marketplaceResourceId: resourceId }) });
    expect(again.status).toBe(200);
    // Many products may have none.
    await createProduct(t, { marketplaceResourceId: null });
    await createProduct(t, { marketplaceResourceId: null });

    const raced = uniq('race');
    const results = await Promise.all(
      Array.from({ length: 6 }, () => t.admin('POST', '/products', { body: productBody({ marketplaceResourceId: raced }) })),
    );
    expect(results.map((r) => r.status).sort()).toEqual([201, 409, 409, 409, 409, 409]);
  });

  it('is 404 for unknown ids of any form', async () => {
    for (const id of ['0190f0f0-0000-7000-8000-000000000000', 'y'.repeat(3000), "'; DROP TABLE products; --", 'a\u0000b']) {
      for (const [method, body] of [['GET'], ['PUT', productBody()], ['DELETE']] as const) {
        const res = await t.admin(method, `/products/${encodeURIComponent(id)}`, { body });
        expect(res.status, `${method} ${id.slice(0, 20)}`).toBe(404);
        expect(res.json).toEqual({ error: 'Product not found' });
      }
    }
  });

  it('refuses to delete a product that licenses or orders reference, saying how many', async () => {
    const p = await createProduct(t);
    const c = await createCustomer(t);
    const license = await insertLicenseRow(t, p.id, c.id);
    // An order listing the product twice counts once.
    const o1 = await createOrder(t, { customerId: c.id, productIds: [p.id, p.id] });
    const o2 = await createOrder(t, { customerId: c.id, productIds: [p.id] });
    await expectRejected(() => t.admin('DELETE', `/products/${p.id}`), 409, 'Product is referenced by 1 license and 2 orders');
    await t.app.db.deleteFrom('licenses').where('id', '=', license).execute();
    await t.admin('DELETE', `/orders/${o1.id}`);
    await expectRejected(() => t.admin('DELETE', `/products/${p.id}`), 409, 'Product is referenced by 1 order');
    await t.admin('DELETE', `/orders/${o2.id}`);
    expect((await t.admin('DELETE', `/products/${p.id}`)).status).toBe(204);
  });

  it('changing limits does not touch existing licenses', async () => {
    const p = await createProduct(t, { maxIps: 1, maxHwids: 1 });
    const license = await insertLicenseRow(t, p.id, (await createCustomer(t)).id);
    await t.app.db.updateTable('licenses').set({ max_ips: 1, max_hwids: 1 }).where('id', '=', license).execute();
    await t.admin('PUT', `/products/${p.id}`, { body: productBody({ maxIps: 9, maxHwids: null }) });
    const row = await t.app.db.selectFrom('licenses').select(['max_ips', 'max_hwids']).where('id', '=', license).executeTakeFirstOrThrow();
    expect(row).toEqual({ max_ips: 1, max_hwids: 1 });
  });

  it('lists with limit/offset in creation order and filters by name', async () => {
    const token = uniq('Shelf');
    const made = [];
    for (let i = 0; i < 4; i += 1) made.push(await createProduct(t, { name: `${token} item ${i}` }));
    const ids = async (query: string) => (await t.admin('GET', `/products?${query}`)).json.map((p: { id: string }) => p.id);
    const q = `q=${encodeURIComponent(token.toUpperCase())}`;
    expect(await ids(q)).toEqual(made.map((p) => p.id));
    expect(await ids(`${q}&limit=3&offset=1`)).toEqual(made.slice(1).map((p) => p.id));
    expect(await ids(`${q}&offset=4`)).toEqual([]);
    expect(await ids(`q=${encodeURIComponent(`${token} item 2`)}`)).toEqual([made[2]!.id]);
    expect(await ids(`q=${encodeURIComponent(`${token}%2`)}`)).toEqual([]);
    expect((await t.admin('GET', '/products?q=%00')).json).toEqual({ error: 'q must not contain NUL characters' });
    expect((await t.admin('GET', '/products?limit=0')).json).toEqual({ error: 'limit must be >= 1' });
  });

  it('maps every route to its permission (401 without credentials, 403 without the permission)', async () => {
    const p = await createProduct(t);
    await expectPermissionMapping(
      t,
      [
        { method: 'GET', path: '/products', permission: 'products:read', okStatus: 200 },
        { method: 'GET', path: `/products/${p.id}`, permission: 'products:read', okStatus: 200 },
        { method: 'POST', path: '/products', permission: 'products:write', body: productBody(), okStatus: 201 },
        { method: 'PUT', path: `/products/${p.id}`, permission: 'products:write', body: productBody(), okStatus: 200 },
        { method: 'DELETE', path: `/products/${p.id}`, permission: 'products:delete', okStatus: 204 },
      ],
      ['products:read', 'products:write', 'products:delete'],
    );
  });
});
