// sort/order and the search filters of the record lists, the audit log's filters and
// paging, and the product-name lookup, on every database.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCustomer, createOrder, createProduct, staffWith, uniq, newLicense } from '../../test/helpers/fixtures.js';
import { DIALECTS, startTestApp, type TestApp } from '../../test/helpers/test-app.js';

describe.each(DIALECTS)('list sorting and filters (%s)', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(dialect);
  });
  afterAll(() => t.close());

  async function ids(path: string): Promise<string[]> {
    const res = await t.admin('GET', path);
    expect(res.status, `${path}: ${res.text}`).toBe(200);
    return (res.json as { id: string }[]).map((r) => r.id);
  }

  it('sorts customers by createdAt, name and email in both directions, oldest first by default', async () => {
    const prefix = uniq('Sort');
    const made = [];
    for (const [name, email] of [['b', 'z'], ['c', 'x'], ['a', 'y']]) {
      made.push(await createCustomer(t, { name: `${prefix} ${name}`, email: `${email}-${prefix}@example.com` }));
    }
    const [b, c, a] = made.map((m) => m.id);
    const base = `/customers?q=${prefix}`;
    expect(await ids(base)).toEqual([b, c, a]);
    expect(await ids(`${base}&sort=createdAt&order=desc`)).toEqual([a, c, b]);
    expect(await ids(`${base}&order=desc`)).toEqual([a, c, b]);
    expect(await ids(`${base}&sort=name`)).toEqual([a, b, c]);
    expect(await ids(`${base}&sort=name&order=desc`)).toEqual([c, b, a]);
    expect(await ids(`${base}&sort=email&order=asc`)).toEqual([c, a, b]);
    // Paging follows the chosen order.
    expect(await ids(`${base}&sort=name&order=desc&limit=1&offset=1`)).toEqual([b]);
  });

  it('sorts products by name and price, orders by totalAmount, licenses by expiry (no expiry last)', async () => {
    const prefix = uniq('SortP');
    const cheap = await createProduct(t, { name: `${prefix} z`, price: 1 });
    const dear = await createProduct(t, { name: `${prefix} a`, price: 99 });
    expect(await ids(`/products?q=${prefix}&sort=price&order=desc`)).toEqual([dear.id, cheap.id]);
    expect(await ids(`/products?q=${prefix}&sort=name`)).toEqual([dear.id, cheap.id]);
    expect(await ids(`/products?q=${prefix}&sort=createdAt&order=desc`)).toEqual([dear.id, cheap.id]);

    const customer = await createCustomer(t);
    const small = await createOrder(t, { customerId: customer.id, productIds: [cheap.id], totalAmount: 5 });
    const big = await createOrder(t, { customerId: customer.id, productIds: [cheap.id], totalAmount: 50 });
    const mid = await createOrder(t, { customerId: customer.id, productIds: [cheap.id], totalAmount: 20 });
    const orders = `/orders?customerId=${customer.id}`;
    expect(await ids(`${orders}&sort=totalAmount`)).toEqual([small.id, mid.id, big.id]);
    expect(await ids(`${orders}&sort=totalAmount&order=desc`)).toEqual([big.id, mid.id, small.id]);
    expect(await ids(`${orders}&order=desc`)).toEqual([mid.id, big.id, small.id]);

    const now = Date.now();
    const never = await newLicense(t, { customerId: customer.id, productId: cheap.id });
    const later = await newLicense(t, { customerId: customer.id, productId: cheap.id, expiresAtEpochMillis: now + 86_400_000 });
    const soon = await newLicense(t, { customerId: customer.id, productId: cheap.id, expiresAtEpochMillis: now + 3_600_000 });
    const licenses = `/licenses?customerId=${customer.id}`;
    expect(await ids(`${licenses}&sort=expiresAt`)).toEqual([soon.id, later.id, never.id]);
    expect(await ids(`${licenses}&sort=expiresAt&order=desc`)).toEqual([never.id, later.id, soon.id]);
    expect(await ids(`${licenses}&order=desc&limit=2`)).toEqual([soon.id, later.id]);
  });

  it('answers 400 naming sort or order for a value it does not allow', async () => {
    for (const path of ['/customers?sort=price', '/products?sort=email', '/licenses?sort=name', '/orders?sort=id', '/orders?sort=']) {
      const res = await t.admin('GET', path);
      expect(res.status, path).toBe(400);
      expect(res.json.error, path).toMatch(/^sort must be one of: createdAt, /);
    }
    const res = await t.admin('GET', '/customers?order=newest');
    expect(res.status).toBe(400);
    expect(res.json.error).toBe('order must be one of: asc, desc');
  });

  it('finds customers by part of the email, ignoring case, with LIKE wildcards taken literally', async () => {
    const tag = uniq('mail').toLowerCase();
    const one = await createCustomer(t, { email: `Sales.${tag}@Shop.example` });
    const two = await createCustomer(t, { email: `help.${tag}@other.example` });
    const wild = await createCustomer(t, { email: `a%_b.${tag}@x.example` });
    await createCustomer(t, { email: `axyb.${tag}@x.example` });
    expect(await ids(`/customers?email=${tag.toUpperCase()}`)).toEqual([one.id, two.id, wild.id, expect.any(String)]);
    expect(await ids(`/customers?email=${encodeURIComponent(`SALES.${tag}@shop`)}`)).toEqual([one.id]);
    expect(await ids(`/customers?email=${encodeURIComponent('a%_b.')}${tag}`)).toEqual([wild.id]);
  });

  it('finds licenses by part of the key and by status', async () => {
    const customer = await createCustomer(t);
    const product = await createProduct(t);
    const now = Date.now();
    const active = await newLicense(t, { customerId: customer.id, productId: product.id, expiresAtEpochMillis: now + 3_600_000 });
    const expired = await newLicense(t, { customerId: customer.id, productId: product.id, expiresAtEpochMillis: now - 1000 });
    const perpetual = await newLicense(t, { customerId: customer.id, productId: product.id });
    const base = `/licenses?customerId=${customer.id}`;
    expect(await ids(`${base}&status=active`)).toEqual([active.id, perpetual.id]);
    expect(await ids(`${base}&status=expired`)).toEqual([expired.id]);
    const res = await t.admin('GET', `${base}&status=expired&limit=1`);
    expect(res.headers['x-total-count']).toBe('1');

    const part = expired.id.slice(6, 14).toLowerCase();
    expect(await ids(`/licenses?key=${part}`)).toEqual([expired.id]);
    expect(await ids(`/licenses?key=${part}&status=active`)).toEqual([]);
    expect(await ids(`/licenses?key=${encodeURIComponent('%')}`)).toEqual([]);
    const bad = await t.admin('GET', `${base}&status=old`);
    expect(bad.status).toBe(400);
    expect(bad.json.error).toBe('status must be one of: active, notStarted, grace, expired, revoked (comma-separated)');
  });

  it('filters the audit log by names, prefix, actor and time range, and pages it with a total', async () => {
    const actor = await staffWith(t, ['customers:write', 'customers:delete', 'products:write']);
    const before = Date.now();
    const customer = (await t.req('POST', '/customers', { token: actor.token, body: { name: uniq('c'), email: 'a@b.example' } })).json;
    await t.req('PUT', `/customers/${customer.id}`, { token: actor.token, body: { name: 'renamed', email: 'a@b.example' } });
    await t.req('DELETE', `/customers/${customer.id}`, { token: actor.token });
    await t.req('POST', '/products', { token: actor.token, body: { name: uniq('p'), productType: 'x', price: 1, requiresLicense: false, isSubscription: false } });
    const after = Date.now() + 1;

    // Registration itself is audited under the new username: count from `before` on.
    const byActor = `/actions?actor=${actor.username}&since=${before}`;
    const all = await t.admin('GET', byActor);
    expect(all.json.map((e: { name: string }) => e.name)).toEqual(['products.create', 'customers.delete', 'customers.update', 'customers.create']);
    expect(all.headers['x-total-count']).toBe('4');

    const names = await t.admin('GET', `${byActor}&name=customers.create&name=customers.delete`);
    expect(names.json.map((e: { name: string }) => e.name)).toEqual(['customers.delete', 'customers.create']);
    const prefixed = await t.admin('GET', `${byActor}&namePrefix=customers.`);
    expect(prefixed.json).toHaveLength(3);
    expect((await t.admin('GET', `${byActor}&namePrefix=customers_`)).json).toEqual([]);

    const paged = await t.admin('GET', `${byActor}&limit=2&offset=1`);
    expect(paged.json.map((e: { name: string }) => e.name)).toEqual(['customers.delete', 'customers.update']);
    expect(paged.headers['x-total-count']).toBe('4');

    const actorOnly = `/actions?actor=${actor.username}`;
    expect((await t.admin('GET', `${actorOnly}&since=${before}&until=${after}`)).json).toHaveLength(4);
    expect((await t.admin('GET', `${actorOnly}&since=${after}`)).json).toEqual([]);
    expect((await t.admin('GET', `${actorOnly}&until=${before}`)).json.map((e: { name: string }) => e.name)).toEqual(['staff.create']);

    const bad = await t.admin('GET', '/actions?since=yesterday');
    expect(bad.status).toBe(400);
    expect(bad.json.error).toContain('since');

    const eventNames = await t.admin('GET', '/actions/names');
    expect(eventNames.json).toEqual(expect.arrayContaining(['customers.create', 'customers.delete', 'products.create']));
    expect([...eventNames.json].sort()).toEqual(eventNames.json);
  });

  it('lets anyone with licenses:read look up product names, and nobody else', async () => {
    const product = await createProduct(t);
    const reader = await staffWith(t, ['licenses:read']);
    const res = await t.req('GET', '/products/names', { token: reader.token });
    expect(res.status).toBe(200);
    expect(res.json).toContainEqual({ id: product.id, name: product.name });
    expect(Object.keys(res.json[0]).sort()).toEqual(['id', 'name']);
    expect((await t.req('GET', '/products', { token: reader.token })).status).toBe(403);
    const other = await staffWith(t, ['customers:read']);
    expect((await t.req('GET', '/products/names', { token: other.token })).status).toBe(403);
  });
});
