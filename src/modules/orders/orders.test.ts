import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createCustomer, createOrder, createProduct, insertLicenseRow, uniq,
} from '../../../test/helpers/fixtures.js';
import { auditEntryFor, expectRejected as expectRejectedAt, newestAuditId as newestAuditIdOf } from '../../../test/helpers/assertions.js';
import { expectPermissionMapping } from '../../../test/helpers/permissions.js';
import { DIALECTS, startTestApp, type TestApp } from '../../../test/helpers/test-app.js';
import { newId } from '../../lib/ids.js';
import { createCustomer as createCustomerInTrx, findCustomerByMarketplaceUserId } from '../customers/customers.service.js';
import { findProductByMarketplaceResourceId } from '../products/products.service.js';
import { createOrder as createOrderInTrx } from './orders.service.js';

describe.each(DIALECTS)('orders (%s)', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(dialect);
  });
  afterAll(() => t.close());

  const newestAuditId = () => newestAuditIdOf(t);
  const entryFor = (name: string, id: string) => auditEntryFor(t, name, id);

  /** A customer, two products and two licenses to build orders from. */
  async function parts() {
    const customer = await createCustomer(t);
    const [p1, p2] = [await createProduct(t), await createProduct(t)];
    const [l1, l2] = [await insertLicenseRow(t, p1.id, customer.id), await insertLicenseRow(t, p2.id, customer.id)];
    return { customer, p1, p2, l1, l2 };
  }

  const expectRejected = (send: () => Promise<{ status: number; json: any }>, status: number, error: string | RegExp) =>
    expectRejectedAt(t, '/orders', send, status, error);

  it('creates, reads, lists, replaces and deletes an order, auditing each change', async () => {
    const { customer, p1, p2, l1, l2 } = await parts();
    // Products keep their order and may repeat; a repeated license is listed once.
    const body = { customerId: customer.id, productIds: [p2.id, p1.id, p2.id], totalAmount: 39.98, licenseIds: [l2, l1, l2] };
    const created = await t.admin('POST', '/orders', { body });
    expect(created.status).toBe(201);
    const o = created.json;
    expect(o).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/), ...body, licenseIds: [l2, l1], createdAtEpochMillis: expect.any(Number),
      kind: 'new', licenseId: l2, // sales: made by hand, about its first license
    });
    expect(Math.abs(o.createdAtEpochMillis - Date.now())).toBeLessThan(60_000);
    expect((await t.admin('GET', `/orders/${o.id}`)).json).toEqual(o);
    expect((await t.admin('GET', '/orders')).json).toContainEqual(o);

    const other = await createCustomer(t);
    const replacement = { customerId: other.id, productIds: [p1.id], totalAmount: 0, licenseIds: [l1] };
    const put = await t.admin('PUT', `/orders/${o.id}`, { body: replacement });
    expect(put.status).toBe(200);
    expect(put.json).toEqual({ id: o.id, ...replacement, createdAtEpochMillis: o.createdAtEpochMillis, kind: 'new', licenseId: l1 });
    expect((await t.admin('GET', `/orders/${o.id}`)).json).toEqual(put.json);

    const del = await t.admin('DELETE', `/orders/${o.id}`);
    expect(del.status).toBe(204);
    expect(del.text).toBe('');
    expect((await t.admin('GET', `/orders/${o.id}`)).json).toEqual({ error: 'Order not found' });
    const leftovers = await t.app.db.selectFrom('order_products').select('order_id').where('order_id', '=', o.id).execute();
    expect(leftovers).toEqual([]);

    for (const [name, snapshot] of [['orders.create', o], ['orders.update', put.json], ['orders.delete', put.json]]) {
      const entry = await entryFor(name, o.id);
      expect(entry?.performedBy, name).toBe('root');
      expect(JSON.parse(entry!.data), name).toEqual(snapshot);
    }
  });

  it('PUT clears omitted licenseIds and requires customerId, productIds and totalAmount', async () => {
    const { customer, p1, l1 } = await parts();
    const o = await createOrder(t, { customerId: customer.id, productIds: [p1.id], licenseIds: [l1] });
    const put = await t.admin('PUT', `/orders/${o.id}`, { body: { customerId: customer.id, productIds: [p1.id], totalAmount: 12.5 } });
    expect(put.json).toEqual({ ...o, totalAmount: 12.5, licenseIds: [], licenseId: null });
    expect((await t.admin('GET', `/orders/${o.id}`)).json.licenseIds).toEqual([]);
    const full = { customerId: customer.id, productIds: [p1.id], totalAmount: 1 };
    for (const field of ['customerId', 'productIds', 'totalAmount'] as const) {
      const { [field]: _omitted, ...body } = full;
      await expectRejected(() => t.admin('PUT', `/orders/${o.id}`, { body }), 400, `${field} is required`);
    }
    expect((await createOrder(t, { customerId: customer.id, productIds: [p1.id] })).licenseIds).toEqual([]);
  });

  it('rejects invalid bodies with a 400 naming the field, writing nothing', async () => {
    const { customer, p1 } = await parts();
    const post = (over: Record<string, unknown>) => () =>
      t.admin('POST', '/orders', { body: { customerId: customer.id, productIds: [p1.id], totalAmount: 5, ...over } });
    await expectRejected(post({ productIds: [] }), 400, /^productIds /);
    await expectRejected(post({ productIds: p1.id }), 400, 'productIds must be array');
    await expectRejected(post({ productIds: [5] }), 400, 'productIds.0 must be string');
    await expectRejected(post({ productIds: Array(101).fill(p1.id) }), 400, /^productIds /);
    await expectRejected(post({ totalAmount: '5' }), 400, 'totalAmount must be number');
    await expectRejected(post({ totalAmount: -1 }), 400, 'totalAmount must be >= 0');
    await expectRejected(post({ customerId: 7 }), 400, 'customerId must be string');
    await expectRejected(post({ licenseIds: 'ABC' }), 400, 'licenseIds must be array');
    await expectRejected(post({ licenseIds: [null] }), 400, 'licenseIds.0 must be string');
    await expectRejected(post({ customerId: 'a\u0000' }), 400, 'customerId must not contain NUL characters');
  });

  it('rejects unknown customerId, productIds and licenseIds with a 400 naming them', async () => {
    const { customer, p1, l1 } = await parts();
    const o = await createOrder(t, { customerId: customer.id, productIds: [p1.id] });
    const body = (over: Record<string, unknown>) => ({ customerId: customer.id, productIds: [p1.id], totalAmount: 5, ...over });
    for (const [method, path] of [['POST', '/orders'], ['PUT', `/orders/${o.id}`]] as const) {
      const send = (over: Record<string, unknown>) => () => t.admin(method, path, { body: body(over) });
      await expectRejected(send({ customerId: 'no-such-customer' }), 400, 'Unknown customerId: no-such-customer');
      await expectRejected(send({ productIds: [p1.id, 'ghost-1', 'ghost-2', 'ghost-1'] }), 400, 'Unknown productIds: ghost-1, ghost-2');
      await expectRejected(send({ licenseIds: [l1, 'AAAAA-BBBBB-CCCCC-DDDDD-EEEEE'] }), 400, 'Unknown licenseIds: AAAAA-BBBBB-CCCCC-DDDDD-EEEEE');
    }
    // An unknown order is 404 even when its body also names unknown records.
    const missing = await t.admin('PUT', `/orders/${newId()}`, { body: body({ customerId: 'no-such-customer' }) });
    expect(missing.status).toBe(404);
  });

  it('is 404 for unknown ids of any form', async () => {
    const { customer, p1 } = await parts();
    const body = { customerId: customer.id, productIds: [p1.id], totalAmount: 1 };
    for (const id of [newId(), 'z'.repeat(3000), "x' UNION SELECT * FROM staff --", 'a\u0000b']) {
      for (const [method, b] of [['GET'], ['PUT', body], ['DELETE']] as const) {
        const res = await t.admin(method, `/orders/${encodeURIComponent(id)}`, { body: b });
        expect(res.status, `${method} ${id.slice(0, 20)}`).toBe(404);
        expect(res.json).toEqual({ error: 'Order not found' });
      }
    }
  });

  it('drops a deleted license from the orders that listed it', async () => {
    const { customer, p1, l1, l2 } = await parts();
    const o = await createOrder(t, { customerId: customer.id, productIds: [p1.id], licenseIds: [l1, l2] });
    await t.app.db.deleteFrom('licenses').where('id', '=', l1).execute();
    expect((await t.admin('GET', `/orders/${o.id}`)).json.licenseIds).toEqual([l2]);
  });

  it('lists with paging and filters, loading the items of many orders at once', async () => {
    const { customer, p1, p2, l1, l2 } = await parts();
    const a = await createOrder(t, { customerId: customer.id, productIds: [p1.id], licenseIds: [l1] });
    const b = await createOrder(t, { customerId: customer.id, productIds: [p2.id, p1.id] });
    const c = await createOrder(t, { customerId: customer.id, productIds: [p2.id] });
    const ids = async (query: string) => (await t.admin('GET', `/orders?${query}`)).json.map((o: { id: string }) => o.id);
    expect(await ids(`customerId=${customer.id}`)).toEqual([a.id, b.id, c.id]);
    expect(await ids(`customerId=${customer.id}&limit=1&offset=1`)).toEqual([b.id]);
    expect(await ids(`productId=${p1.id}`)).toEqual([a.id, b.id]);
    expect(await ids(`customerId=${customer.id}&productId=${p2.id}`)).toEqual([b.id, c.id]);
    expect(await ids('customerId=nobody')).toEqual([]);
    // licenseId: the orders holding the license, whichever place it has among their licenses
    const d = await createOrder(t, { customerId: customer.id, productIds: [p2.id], licenseIds: [l2, l1] });
    expect(await ids(`licenseId=${l1}`)).toEqual([a.id, d.id]);
    expect(await ids(`licenseId=${l1}&productId=${p1.id}`)).toEqual([a.id]);
    expect(await ids('licenseId=nothing')).toEqual([]);
    expect((await t.admin('GET', '/orders?productId=%00')).json).toEqual({ error: 'productId must not contain NUL characters' });
    expect((await t.admin('GET', '/orders?offset=-1')).json).toEqual({ error: 'offset must be >= 0' });

    // More orders than one child query takes (500): every order still gets its items.
    const bulk = await createCustomer(t);
    const rows = Array.from({ length: 520 }, (_, i) => ({ id: newId(), customer_id: bulk.id, total_amount: i, created_at: Date.now() }));
    await t.app.db.insertInto('orders').values(rows).execute();
    await t.app.db
      .insertInto('order_products')
      .values(rows.flatMap((r) => [{ order_id: r.id, product_id: p1.id, position: 0 }, { order_id: r.id, product_id: p2.id, position: 1 }]))
      .execute();
    await t.app.db.insertInto('order_licenses').values(rows.map((r) => ({ order_id: r.id, license_id: l1, position: 0 }))).execute();
    const listed = (await t.admin('GET', `/orders?customerId=${bulk.id}`)).json as { productIds: string[]; licenseIds: string[] }[];
    expect(listed).toHaveLength(520);
    expect(listed.every((o) => o.productIds.join() === `${p1.id},${p2.id}` && o.licenseIds.join() === l1)).toBe(true);
  });

  it('offers plain functions for the marketplace webhook, run in its transaction', async () => {
    const userId = uniq('buyer');
    const resourceId = uniq('resource');
    const product = await createProduct(t, { marketplaceResourceId: resourceId, price: 7.5 });
    const { customer, order } = await t.app.transaction(async (trx) => {
      const found = await findProductByMarketplaceResourceId(trx, resourceId);
      expect(found?.id).toBe(product.id);
      expect(await findCustomerByMarketplaceUserId(trx, userId)).toBeUndefined();
      const created = await createCustomerInTrx(trx, 'marketplace', {
        name: `Marketplace user ${userId}`, email: `${userId}@marketplace.invalid`, socials: { MarketplaceID: userId },
      });
      const license = await insertLicenseRowIn(trx, product.id, created.id);
      const made = await createOrderInTrx(trx, 'marketplace', {
        customerId: created.id, productIds: [product.id], totalAmount: found!.price, licenseIds: [license],
      });
      return { customer: created, order: made };
    });
    expect((await t.admin('GET', `/orders/${order.id}`)).json).toEqual(order);
    expect((await findCustomerByMarketplaceUserId(t.app.db, userId))?.id).toBe(customer.id);
    expect((await entryFor('orders.create', order.id))?.performedBy).toBe('marketplace');
    expect((await entryFor('customers.create', customer.id))?.performedBy).toBe('marketplace');
  });

  it('maps every route to its permission (401 without credentials, 403 without the permission)', async () => {
    const { customer, p1 } = await parts();
    const o = await createOrder(t, { customerId: customer.id, productIds: [p1.id] });
    const body = { customerId: customer.id, productIds: [p1.id], totalAmount: 3 };
    await expectPermissionMapping(
      t,
      [
        { method: 'GET', path: '/orders', permission: 'orders:read', okStatus: 200 },
        { method: 'GET', path: `/orders/${o.id}`, permission: 'orders:read', okStatus: 200 },
        { method: 'POST', path: '/orders', permission: 'orders:write', body, okStatus: 201 },
        { method: 'PUT', path: `/orders/${o.id}`, permission: 'orders:write', body, okStatus: 200 },
        { method: 'DELETE', path: `/orders/${o.id}`, permission: 'orders:delete', okStatus: 204 },
      ],
      ['orders:read', 'orders:write', 'orders:delete'],
    );
  });

  /** insertLicenseRow, but inside an open transaction. */
  async function insertLicenseRowIn(trx: TestApp['app']['db'], productId: string, customerId: string) {
    const id = `TEST${newId()}`;
    await trx
      .insertInto('licenses')
      .values({ id, product_id: productId, customer_id: customerId, expires_at: null, max_ips: null, max_hwids: null, version: 1, created_at: Date.now() })
      .execute();
    return id;
  }
});
