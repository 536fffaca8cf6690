// X-Total-Count on the record lists: the number of records matching the filters,
// whatever `limit` and `offset` show, on every list and database.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCustomer, createOrder, createProduct, uniq, newLicense } from '../../test/helpers/fixtures.js';
import { DIALECTS, startTestApp, type TestApp } from '../../test/helpers/test-app.js';

const LISTS = ['/customers', '/products', '/licenses', '/orders'];

describe.each(DIALECTS)('list totals (%s)', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(dialect);
  });
  afterAll(() => t.close());

  /** Ids shown and the total announced for `path`. */
  async function listed(path: string) {
    const res = await t.admin('GET', path);
    expect(res.status, path).toBe(200);
    return { ids: (res.json as { id: string }[]).map((r) => r.id), total: Number(res.headers['x-total-count']) };
  }

  /** Pages through the `matching` records (creation order) behind `path`, a filtered list. */
  async function expectPaging(path: string, matching: string[]) {
    const join = path.includes('?') ? '&' : '?';
    expect(await listed(path)).toEqual({ ids: matching, total: matching.length });
    expect(await listed(`${path}${join}limit=2`)).toEqual({ ids: matching.slice(0, 2), total: matching.length });
    expect(await listed(`${path}${join}limit=2&offset=2`)).toEqual({ ids: matching.slice(2, 4), total: matching.length });
    expect(await listed(`${path}${join}offset=1`)).toEqual({ ids: matching.slice(1), total: matching.length });
    expect(await listed(`${path}${join}limit=5000&offset=0`)).toEqual({ ids: matching, total: matching.length });
    expect(await listed(`${path}${join}limit=10&offset=100`)).toEqual({ ids: [], total: matching.length });
  }

  it('counts customers matching the name and email filters', async () => {
    const prefix = uniq('Totals');
    const named = [];
    for (let i = 0; i < 5; i += 1) named.push((await createCustomer(t, { name: `${prefix} ${i}`, email: `${prefix}-${i % 2}@example.com` })).id);
    await createCustomer(t);
    await expectPaging(`/customers?q=${prefix}`, named);
    await expectPaging(`/customers?email=${prefix}-1@EXAMPLE.com`, [named[1]!, named[3]!]);
    expect(await listed(`/customers?q=${prefix}-none&limit=1`)).toEqual({ ids: [], total: 0 });
  });

  it('counts products matching the name filter', async () => {
    const prefix = uniq('Totals');
    const named = [];
    for (let i = 0; i < 5; i += 1) named.push((await createProduct(t, { name: `${prefix} ${i}` })).id);
    await createProduct(t);
    await expectPaging(`/products?q=${prefix}`, named);
  });

  it('counts licenses of a customer and of a product', async () => {
    const customer = await createCustomer(t);
    const product = await createProduct(t);
    const ofCustomer = [];
    for (let i = 0; i < 4; i += 1) ofCustomer.push((await newLicense(t, { customerId: customer.id, productId: i < 3 ? product.id : undefined })).id);
    const ofProduct = [...ofCustomer.slice(0, 3), (await newLicense(t, { productId: product.id })).id];
    await expectPaging(`/licenses?customerId=${customer.id}`, ofCustomer);
    await expectPaging(`/licenses?productId=${product.id}`, ofProduct);
    await expectPaging(`/licenses?customerId=${customer.id}&productId=${product.id}`, ofCustomer.slice(0, 3));
  });

  it('counts orders of a customer and orders containing a product', async () => {
    const customer = await createCustomer(t);
    const product = await createProduct(t);
    const other = await createProduct(t);
    const ofCustomer = [];
    // Twice the same product in one order still counts the order once.
    for (let i = 0; i < 3; i += 1) ofCustomer.push((await createOrder(t, { customerId: customer.id, productIds: [product.id, product.id] })).id);
    ofCustomer.push((await createOrder(t, { customerId: customer.id, productIds: [other.id] })).id);
    const withProduct = [...ofCustomer.slice(0, 3), (await createOrder(t, { productIds: [other.id, product.id] })).id];
    await expectPaging(`/orders?customerId=${customer.id}`, ofCustomer);
    await expectPaging(`/orders?productId=${product.id}`, withProduct);
  });

  it('counts every record without filters, paged or not', async () => {
    for (const path of LISTS) {
      const all = await listed(path);
      expect(all.total, path).toBe(all.ids.length);
      expect(all.total, path).toBeGreaterThan(4);
      expect(await listed(`${path}?limit=1`), path).toEqual({ ids: all.ids.slice(0, 1), total: all.total });
    }
  });

  it('documents the header on every list in the OpenAPI document', async () => {
    const doc = (await t.req('GET', '/openapi.json')).json;
    for (const path of LISTS) {
      const ok = doc.paths[path].get.responses['200'];
      expect(ok.headers['X-Total-Count'].schema.type, path).toBe('integer');
      expect(doc.paths[path].get.description, path).toContain('X-Total-Count');
    }
  });
});
