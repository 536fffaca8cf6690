import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, startTestApp, type TestApp } from '../../../test/helpers/test-app.js';
import { auditEntries, createProduct } from '../../../test/helpers/fixtures.js';
import type { RequestOptions } from '../../../test/helpers/http.js';

const KEY = /^[0-9A-HJKMNP-TV-Z]{5}(-[0-9A-HJKMNP-TV-Z]{5}){4}$/;
const SECRET = 'test-marketplace-secret';
const PATHS = ['/marketplace', '/marketplace/license', '/integrations/marketplace'];
const DAY = 86_400_000;

let seq = 0;
const userId = () => `${Date.now()}${(seq += 1)}`;
const resourceId = () => `res-${Date.now()}-${(seq += 1)}`;

describe.each(DIALECTS)('marketplace webhook (%s)', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(dialect, { WEBHOOK_RATE_LIMIT: '100000' });
  });
  afterAll(() => t.close());

  const call = (fields: Record<string, string>, path = '/marketplace', encoding: 'form' | 'multipart' | 'json' = 'form') => {
    const opts: RequestOptions = encoding === 'json' ? { body: fields } : { [encoding]: fields };
    return t.req('POST', path, opts);
  };
  const fields = (resource: string, over: Record<string, string> = {}) => ({
    secret: SECRET, user_id: userId(), resource_id: resource, marketplace: 'true', version_id: '17', version_number: '2.1.0', ...over,
  });
  const byMarketplaceId = async (id: string) =>
    ((await t.admin('GET', '/customers')).json as { id: string; socials: Record<string, string> }[]).filter(
      (c) => c.socials.MarketplaceID === id,
    );
  const licensesOf = async (customerId: string) => (await t.admin('GET', `/licenses?customerId=${customerId}`)).json as any[];
  const ordersOf = async (customerId: string) => (await t.admin('GET', `/orders?customerId=${customerId}`)).json as any[];

  it('issues a key as plain text on every path and in every encoding', async () => {
    const product = await createProduct(t, { marketplaceResourceId: resourceId() });
    for (const path of PATHS) {
      for (const encoding of ['form', 'multipart', 'json'] as const) {
        const res = await call(fields(product.marketplaceResourceId!), path, encoding);
        expect(res.status, `${path} ${encoding}: ${res.text}`).toBe(200);
        expect(res.headers['content-type']).toBe('text/plain; charset=UTF-8');
        expect(res.text).toMatch(KEY);
      }
    }
  });

  it('creates the customer, a license with the product limits and an order, then reuses them', async () => {
    const product = await createProduct(t, { marketplaceResourceId: resourceId(), maxIps: 2, maxHwids: 3, price: 12.5 });
    const f = fields(product.marketplaceResourceId!, { steam_id: '76561198000000001' });
    const first = await call(f);
    expect(first.status).toBe(200);

    const [customer, ...others] = await byMarketplaceId(f.user_id);
    expect(others).toHaveLength(0);
    expect(customer).toMatchObject({
      name: `Marketplace user ${f.user_id}`,
      email: `${f.user_id}@marketplace.invalid`,
      socials: { MarketplaceID: f.user_id, SteamID: '76561198000000001' },
    });
    const [license] = await licensesOf(customer!.id);
    expect(license).toMatchObject({ id: first.text, productId: product.id, maxIps: 2, maxHwids: 3, expiresAtEpochMillis: null, version: 1 });
    const [order] = await ordersOf(customer!.id);
    expect(order).toMatchObject({ customerId: customer!.id, productIds: [product.id], totalAmount: 12.5, licenseIds: [first.text] });

    // The buyer's software validates once, so the license has a history by the next call.
    const validation = await t.req('POST', '/licenses/validate', { body: { licenseId: first.text, productId: product.id, hwid: 'HW-1' } });
    expect(validation.json).toEqual({ valid: true });
    const again = await call(f, '/integrations/marketplace', 'multipart');
    expect(again.text).toBe(first.text);
    expect(await byMarketplaceId(f.user_id)).toHaveLength(1);
    expect(await licensesOf(customer!.id)).toHaveLength(1);
    expect(await ordersOf(customer!.id)).toHaveLength(1);

    const created = (await auditEntries(t, 'marketplace.license.create')).filter((e) => e.data.includes(first.text));
    expect(created).toHaveLength(1);
    expect(created[0]!.performedBy).toBe('marketplace');
    expect(JSON.parse(created[0]!.data)).toMatchObject({ id: first.text, marketplace: { version_number: '2.1.0', user_id: f.user_id } });
    expect(JSON.parse(created[0]!.data)).not.toHaveProperty('validationAttempts');
    const reused = (await auditEntries(t, 'marketplace.license.reuse')).filter((e) => e.data.includes(first.text));
    expect(reused).toHaveLength(1);
    const reuseEntry = JSON.parse(reused[0]!.data);
    expect(reuseEntry).toMatchObject({ id: first.text, usedHwids: ['HW-1'], marketplace: { user_id: f.user_id } });
    expect(reuseEntry).not.toHaveProperty('validationAttempts');
  });

  it('gives subscription licenses an expiry of now + the period, and issues a new one once it expired', async () => {
    const product = await createProduct(t, { marketplaceResourceId: resourceId(), isSubscription: true, recurringPeriodDays: 30 });
    const f = fields(product.marketplaceResourceId!, { steam_id: '' });
    const before = Date.now();
    const first = await call(f);
    const [customer] = await byMarketplaceId(f.user_id);
    expect(customer!.socials).toEqual({ MarketplaceID: f.user_id });
    const [license] = await licensesOf(customer!.id);
    expect(license.expiresAtEpochMillis).toBeGreaterThanOrEqual(before + 30 * DAY);
    expect(license.expiresAtEpochMillis).toBeLessThanOrEqual(Date.now() + 30 * DAY);

    // let it expire
    const put = await t.admin('PUT', `/licenses/${first.text}`, { body: { ...license, expiresAtEpochMillis: Date.now() - 1000 } });
    expect(put.status).toBe(200);
    const second = await call(f);
    expect(second.status).toBe(200);
    expect(second.text).not.toBe(first.text);
    expect(await licensesOf(customer!.id)).toHaveLength(2);
    expect(await ordersOf(customer!.id)).toHaveLength(2);
  });

  it('names the missing required fields', async () => {
    const all = await call({ marketplace: 'true' });
    expect(all.status).toBe(400);
    expect(all.text).toBe('Missing required form fields: user_id, resource_id, secret');
    expect(all.headers['content-type']).toMatch(/^text\/plain/);
    const some = await call({ secret: SECRET, user_id: '' });
    expect(some.text).toBe('Missing required form fields: user_id, resource_id');
  });

  it('rejects a wrong secret (401) and an unknown resource (404), audited without the secret, creating nothing', async () => {
    const product = await createProduct(t, { marketplaceResourceId: resourceId() });
    const wrong = fields(product.marketplaceResourceId!, { secret: 'not-the-secret' });
    const denied = await call(wrong);
    expect(denied.status).toBe(401);
    expect(denied.text).toBe('Invalid secret');

    const unknown = fields('no-such-resource');
    const missing = await call(unknown, '/marketplace/license');
    expect(missing.status).toBe(404);
    expect(missing.text).toBe('No product found with marketplace resource ID no-such-resource');

    for (const f of [wrong, unknown]) expect(await byMarketplaceId(f.user_id)).toHaveLength(0);
    const rejects = await auditEntries(t, 'marketplace.license.reject');
    for (const f of [wrong, unknown]) {
      const entry = rejects.find((e) => e.data.includes(f.user_id));
      expect(entry).toBeDefined();
      expect(JSON.parse(entry!.data)).toMatchObject({ user_id: f.user_id, resource_id: f.resource_id, reason: expect.any(String) });
      expect(entry!.data).not.toContain(SECRET);
      expect(entry!.data).not.toContain('not-the-secret');
    }
  });

  it('reuses a customer who already carries the marketplace id', async () => {
    const product = await createProduct(t, { marketplaceResourceId: resourceId() });
    const f = fields(product.marketplaceResourceId!);
    const existing = await t.admin('POST', '/customers', { body: { name: 'Known', email: 'k@example.com', socials: { MarketplaceID: f.user_id } } });
    const res = await call(f);
    expect(res.status).toBe(200);
    expect((await byMarketplaceId(f.user_id)).map((c) => c.id)).toEqual([existing.json.id]);
  });

  it('answers concurrent identical calls with one customer, one license, one order and the same key', async () => {
    const product = await createProduct(t, { marketplaceResourceId: resourceId() });
    const f = fields(product.marketplaceResourceId!);
    const results = await Promise.all(Array.from({ length: 10 }, (_, i) => call(f, PATHS[i % 3])));
    expect(results.map((r) => r.status)).toEqual(Array(10).fill(200));
    expect(new Set(results.map((r) => r.text)).size).toBe(1);
    const customers = await byMarketplaceId(f.user_id);
    expect(customers).toHaveLength(1);
    expect(await licensesOf(customers[0]!.id)).toHaveLength(1);
    expect(await ordersOf(customers[0]!.id)).toHaveLength(1);
    const key = results[0]!.text;
    expect((await auditEntries(t, 'marketplace.license.create')).filter((e) => e.data.includes(key))).toHaveLength(1);
    expect((await auditEntries(t, 'marketplace.license.reuse')).filter((e) => e.data.includes(key))).toHaveLength(9);
  });

  it('stays consistent when two instances share the database', async () => {
    const other = await startTestApp(dialect, { WEBHOOK_RATE_LIMIT: '100000' }, t.database);
    try {
      const product = await createProduct(t, { marketplaceResourceId: resourceId() });
      const f = fields(product.marketplaceResourceId!);
      const results = await Promise.all(
        Array.from({ length: 12 }, (_, i) => (i % 2 ? other : t).req('POST', '/marketplace', { form: f })),
      );
      expect(results.map((r) => r.status)).toEqual(Array(12).fill(200));
      expect(new Set(results.map((r) => r.text)).size).toBe(1);
      const customers = await byMarketplaceId(f.user_id);
      expect(customers).toHaveLength(1);
      expect(await licensesOf(customers[0]!.id)).toHaveLength(1);
    } finally {
      await other.close();
    }
  });
});

describe.each(DIALECTS)('marketplace webhook rate limit (%s)', (dialect) => {
  it('allows 60 calls a minute per IP across the three paths, then 429 in plain text; other IPs unaffected', async () => {
    const t = await startTestApp(dialect);
    try {
      const ip = '127.0.0.31';
      const form = { secret: 'wrong', user_id: '1', resource_id: '1' };
      for (let i = 0; i < 60; i += 1) {
        const res = await t.req('POST', PATHS[i % 3]!, { form, localAddress: ip });
        expect(res.status).toBe(401);
      }
      const limited = await t.req('POST', '/integrations/marketplace', { form, localAddress: ip });
      expect(limited.status).toBe(429);
      expect(limited.text).toBe('Too many requests. Please try again shortly.');
      expect(limited.headers['content-type']).toMatch(/^text\/plain/);
      expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
      expect((await t.req('POST', '/marketplace', { form, localAddress: '127.0.0.32' })).status).toBe(401);
    } finally {
      await t.close();
    }
  });
});

describe('marketplace webhook without a configured secret', () => {
  it('rejects every request with 503', async () => {
    const t = await startTestApp('sqlite', { MARKETPLACE_SECRET: '' });
    try {
      const res = await t.req('POST', '/marketplace', { form: { secret: '', user_id: '1', resource_id: '2' } });
      expect(res.status).toBe(503);
      expect(res.text).toBe('Marketplace webhook is not configured');
    } finally {
      await t.close();
    }
  });
});
