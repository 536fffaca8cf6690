// The Polymart integration, black-box on both databases: signed webhook events (purchase,
// refund, ping, unknown), nonce replay, the license-key placeholder, and the product field.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEntries, createProduct, productBody, uniq } from '../../../test/helpers/fixtures.js';
import { DIALECTS, startTestApp, type TestApp } from '../../../test/helpers/test-app.js';
import { startReceiver, type Receiver } from '../../../test/helpers/webhook-receiver.js';
import { polymartSignature } from './polymart.signature.js';

const SECRET = 'test-polymart-secret';
const WEBHOOK = '/integrations/polymart';
const PLACEHOLDER = '/integrations/polymart/placeholder';
const KEY = /^[0-9A-HJKMNP-TV-Z]{5}(-[0-9A-HJKMNP-TV-Z]{5}){4}$/;

let seq = 0;
/** Polymart user ids are numbers. */
const polymartUser = () => Number(`${Date.now() % 1e9}${(seq += 1)}`);
const nowSeconds = () => Math.floor(Date.now() / 1000);

/** Sends `body` (an object, or raw text) signed with `secret`, or with the given header value (null: none). */
function signedSender(t: () => TestApp) {
  return (path: string, body: unknown, options: { secret?: string; signature?: string | null } = {}) => {
    const raw = typeof body === 'string' ? body : JSON.stringify(body);
    const signature = options.signature === undefined ? polymartSignature(raw, options.secret ?? SECRET) : options.signature;
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (signature !== null) headers['x-polymart-signature'] = signature;
    return t().req('POST', path, { rawBody: raw, headers });
  };
}

const purchaseBody = (productId: unknown, userId: unknown, over: Record<string, unknown> = {}) => ({
  event: 'product.user.purchase',
  time: nowSeconds(),
  nonce: uniq('nonce'),
  payload: { product: { id: productId, title: 'Plugin', url: 'https://polymart.org/resource/1' }, user: { id: userId } },
  ...over,
});
const refundBody = (productId: unknown, userId: unknown) => ({
  ...purchaseBody(productId, userId),
  event: 'product.user.purchaseRemoved',
});
const placeholderBody = (productId: unknown, userId: unknown, over: Record<string, unknown> = {}) => ({
  user: userId, product: productId, nonce: uniq('nonce'), time: nowSeconds(), placeholder: '%%__LICENSE__%%', ...over,
});

describe.each(DIALECTS)('polymart (%s)', (dialect) => {
  let t: TestApp;
  let receiver: Receiver;
  beforeAll(async () => {
    t = await startTestApp(dialect, { POLYMART_WEBHOOK_SECRET: SECRET, WEBHOOK_RATE_LIMIT: '100000', WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true' });
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await t.close();
    await receiver.close();
  });

  const send = signedSender(() => t);
  const polymartProduct = (over: Record<string, unknown> = {}) => createProduct(t, { polymartProductId: uniq('pm'), ...over });
  const customersOf = async (userId: string | number) =>
    ((await t.admin('GET', '/customers')).json as { id: string; name: string; email: string; socials: Record<string, string> }[]).filter(
      (c) => c.socials.PolymartID === String(userId),
    );
  const licensesOf = async (customerId: string) => (await t.admin('GET', `/licenses?customerId=${customerId}`)).json as any[];
  const ordersOf = async (customerId: string) => (await t.admin('GET', `/orders?customerId=${customerId}`)).json as any[];
  const rowCounts = async () => {
    const count = async (table: 'customers' | 'licenses' | 'orders' | 'audit_entries' | 'polymart_nonces') =>
      Number((await t.app.db.selectFrom(table).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
    return {
      customers: await count('customers'), licenses: await count('licenses'), orders: await count('orders'),
      audit: await count('audit_entries'), nonces: await count('polymart_nonces'),
    };
  };
  const entriesFor = async (name: string, text: string) => (await auditEntries(t, name)).filter((e) => e.data.includes(text));

  it('answers a ping, whatever Content-Type the signed JSON comes with', async () => {
    const res = await send(WEBHOOK, { event: 'ping', time: nowSeconds(), nonce: uniq('nonce'), payload: {} });
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ ok: true });
    for (const type of ['application/json; charset=utf-8', 'text/plain', undefined]) {
      const raw = JSON.stringify({ event: 'ping', time: nowSeconds(), nonce: uniq('nonce') });
      const headers: Record<string, string> = { 'x-polymart-signature': polymartSignature(raw, SECRET), ...(type && { 'content-type': type }) };
      const other = await t.req('POST', WEBHOOK, { rawBody: raw, headers });
      expect(other.status, `${type}: ${other.text}`).toBe(200);
    }
  });

  it('refuses a missing or wrong signature with 401, whatever the body, writing nothing', async () => {
    const product = await polymartProduct();
    const body = purchaseBody(product.polymartProductId, polymartUser());
    const before = await rowCounts();
    const cases = [
      [await send(WEBHOOK, body, { signature: null }), 'X-Polymart-Signature header is required'],
      [await send(WEBHOOK, body, { signature: 'abc' }), 'Invalid X-Polymart-Signature'],
      [await send(WEBHOOK, body, { secret: 'another-secret' }), 'Invalid X-Polymart-Signature'],
      [await send(WEBHOOK, body, { signature: polymartSignature(JSON.stringify({ ...body, nonce: 'other' }), SECRET) }), 'Invalid X-Polymart-Signature'],
      [await send(WEBHOOK, '{"event": ', { signature: null }), 'X-Polymart-Signature header is required'],
      [await send(WEBHOOK, '{"event": ', { secret: 'another-secret' }), 'Invalid X-Polymart-Signature'],
      [await send(PLACEHOLDER, placeholderBody(product.polymartProductId!, 1), { secret: 'another-secret' }), 'Invalid X-Polymart-Signature'],
    ] as const;
    for (const [res, message] of cases) {
      expect(res.status, res.text).toBe(401);
      expect(res.json).toEqual({ error: message });
    }
    expect(await rowCounts()).toEqual(before);
  });

  it('answers a signed but malformed body with 400 naming the problem, writing nothing', async () => {
    const product = await polymartProduct();
    const user = polymartUser();
    const before = await rowCounts();
    const { nonce: _nonce, ...withoutNonce } = purchaseBody(product.polymartProductId!, user);
    const cases: [string, unknown, string][] = [
      [WEBHOOK, '{"event": ', 'Request body is not valid JSON'],
      [WEBHOOK, '', 'Request body is not valid JSON'],
      [WEBHOOK, '[1, 2]', 'Request body must be a JSON object'],
      [WEBHOOK, withoutNonce, 'nonce is required'],
      [WEBHOOK, purchaseBody(product.polymartProductId!, user, { time: 'now' }), 'time must be number'],
      [WEBHOOK, purchaseBody(product.polymartProductId!, user, { payload: { product: { id: product.polymartProductId } } }), 'payload.user.id is required'],
      [WEBHOOK, purchaseBody(product.polymartProductId!, true), 'payload.user.id must be a non-empty string (at most 100 characters) or a whole number'],
      [WEBHOOK, purchaseBody('', user), 'payload.product.id must be a non-empty string (at most 100 characters) or a whole number'],
      [WEBHOOK, { ...refundBody(product.polymartProductId!, user), payload: undefined }, 'payload.product.id is required'],
      [PLACEHOLDER, '{', 'Request body is not valid JSON'],
      [PLACEHOLDER, placeholderBody(product.polymartProductId!, 1.5), 'user must be string,integer'],
      [PLACEHOLDER, { ...placeholderBody(product.polymartProductId!, user), placeholder: undefined }, 'placeholder is required'],
    ];
    for (const [path, body, message] of cases) {
      const res = await send(path, body);
      expect(res.status, `${message}: ${res.text}`).toBe(400);
      expect(res.json).toEqual({ error: message });
    }
    const huge = await send(WEBHOOK, { event: 'ping', time: 1, nonce: uniq('nonce'), payload: { pad: 'x'.repeat(70_000) } });
    expect(huge.status).toBe(413);
    expect(huge.json).toEqual({ error: 'Request body is too large' });
    expect(await rowCounts()).toEqual(before);
  });

  it('creates the customer, a license and an order on a purchase, and reuses them on the next delivery', async () => {
    const product = await polymartProduct({ maxHwids: 2, price: 7.5 });
    const user = polymartUser();
    const first = await send(WEBHOOK, purchaseBody(product.polymartProductId!, user));
    expect(first.status, first.text).toBe(200);
    expect(first.json).toEqual({ licenseKey: expect.stringMatching(KEY), created: true });
    const key = first.json.licenseKey as string;

    const [customer, ...others] = await customersOf(user);
    expect(others).toHaveLength(0);
    expect(customer).toMatchObject({ name: `Polymart user ${user}`, email: `${user}@polymart.invalid`, socials: { PolymartID: String(user) } });
    expect(await licensesOf(customer!.id)).toMatchObject([{ id: key, productId: product.id, maxHwids: 2, expiresAtEpochMillis: null }]);
    expect(await ordersOf(customer!.id)).toMatchObject([{ productIds: [product.id], totalAmount: 7.5, licenseIds: [key] }]);

    // Ids as strings, a new nonce: the same buyer, the same license.
    const again = await send(WEBHOOK, purchaseBody(String(product.polymartProductId), String(user)));
    expect(again.json).toEqual({ licenseKey: key, created: false });
    expect(await customersOf(user)).toHaveLength(1);
    expect(await licensesOf(customer!.id)).toHaveLength(1);
    // sales: a purchase that reuses the held license records its order (`reuse`)
    expect(await ordersOf(customer!.id)).toMatchObject([{ kind: 'new', licenseId: key }, { kind: 'reuse', licenseId: key }]);

    const [created] = await entriesFor('marketplace.license.create', key);
    expect(created!.performedBy).toBe('polymart');
    expect(JSON.parse(created!.data)).toMatchObject({
      id: key, marketplace: 'polymart', polymart: { user_id: String(user), product_id: product.polymartProductId, event: 'product.user.purchase' },
    });
    expect(await entriesFor('marketplace.license.reuse', key)).toHaveLength(1);
    for (const name of ['customers.create', 'orders.create']) {
      const [entry] = await entriesFor(name, customer!.id);
      expect(JSON.parse(entry!.data), name).toMatchObject({ marketplace: 'polymart' });
    }
  });

  it('answers a redelivered nonce exactly as the first time and does nothing', async () => {
    const product = await polymartProduct();
    const body = purchaseBody(product.polymartProductId!, polymartUser());
    const first = await send(WEBHOOK, body);
    expect(first.status).toBe(200);
    const before = await rowCounts();
    const replay = await send(WEBHOOK, body);
    expect(replay.status).toBe(200);
    expect(replay.text).toBe(first.text);
    // The nonce decides, not the content: another buyer under the same nonce gets the same answer.
    const sameNonce = await send(WEBHOOK, { ...purchaseBody(product.polymartProductId!, polymartUser()), nonce: body.nonce });
    expect(sameNonce.text).toBe(first.text);
    expect(await rowCounts()).toEqual(before);
  });

  it('does the work of concurrent deliveries of one nonce once', async () => {
    const product = await polymartProduct();
    const user = polymartUser();
    const body = purchaseBody(product.polymartProductId!, user);
    const results = await Promise.all(Array.from({ length: 8 }, () => send(WEBHOOK, body)));
    expect(results.map((r) => r.status)).toEqual(Array(8).fill(200));
    expect(new Set(results.map((r) => r.text)).size).toBe(1);
    expect(results[0]!.json).toMatchObject({ created: true });
    const [customer, ...others] = await customersOf(user);
    expect(others).toHaveLength(0);
    expect(await licensesOf(customer!.id)).toHaveLength(1);
    expect(await entriesFor('marketplace.license.create', body.nonce)).toHaveLength(1);
    expect(await entriesFor('marketplace.license.reuse', body.nonce)).toHaveLength(0);
  });

  it('acknowledges an unknown product (audited as a rejection) and an unknown event', async () => {
    const user = polymartUser();
    const unknownProduct = await send(WEBHOOK, purchaseBody('no-such-product', user));
    expect(unknownProduct.status).toBe(200);
    expect(unknownProduct.json).toEqual({ ignored: 'unknown product' });
    expect(await customersOf(user)).toHaveLength(0);
    const [reject] = await entriesFor('marketplace.license.reject', 'no-such-product');
    expect(JSON.parse(reject!.data)).toMatchObject({ marketplace: 'polymart', user_id: String(user), product_id: 'no-such-product', reason: 'unknown product' });

    const before = await rowCounts();
    const unknownEvent = await send(WEBHOOK, { event: 'product.review.posted', time: nowSeconds(), nonce: uniq('nonce'), payload: { anything: 1 } });
    expect(unknownEvent.status).toBe(200);
    expect(unknownEvent.json).toEqual({ ignored: 'unknown event' });
    expect(await rowCounts()).toEqual({ ...before, nonces: before.nonces + 1 });
  });

  it("revokes the buyer's active licenses for the refunded product only, as a staff revocation would", async () => {
    const endpoint = await t.admin('POST', '/webhook-endpoints', { body: { url: receiver.url, events: ['licenses.revoke'] } });
    expect(endpoint.status).toBe(201);
    const [refunded, other] = [await polymartProduct(), await polymartProduct()];
    const [buyer, otherBuyer] = [polymartUser(), polymartUser()];
    const keyOf = async (product: typeof refunded, user: number) =>
      (await send(WEBHOOK, purchaseBody(product.polymartProductId!, user))).json.licenseKey as string;
    const target = await keyOf(refunded, buyer);
    const otherProduct = await keyOf(other, buyer);
    const otherBuyers = await keyOf(refunded, otherBuyer);
    const [customer] = await customersOf(buyer);
    // An expired license of the same buyer and product stays as it is.
    const expired = await t.admin('POST', '/licenses', {
      body: { productId: refunded.id, customerId: customer!.id, expiresAtEpochMillis: Date.now() - 60_000 },
    });
    expect(expired.status).toBe(201);

    const refund = await send(WEBHOOK, refundBody(refunded.polymartProductId!, buyer));
    expect(refund.status).toBe(200);
    expect(refund.json).toEqual({ revokedLicenseIds: [target] });

    const read = async (id: string) => (await t.admin('GET', `/licenses/${id}`)).json;
    expect(await read(target)).toMatchObject({ revokedReason: 'refund', revokedAtEpochMillis: expect.any(Number), version: 2 });
    for (const id of [otherProduct, otherBuyers, expired.json.id]) expect(await read(id), id).toMatchObject({ revokedAtEpochMillis: null, version: 1 });

    const [revokeEntry] = await entriesFor('licenses.revoke', target);
    expect(revokeEntry!.performedBy).toBe('polymart');
    expect(JSON.parse(revokeEntry!.data)).toMatchObject({ licenseId: target, reason: 'refund', marketplace: 'polymart' });
    const [refundEntry] = await entriesFor('marketplace.license.revoke', target);
    expect(JSON.parse(refundEntry!.data)).toMatchObject({
      marketplace: 'polymart', user_id: String(buyer), product_id: refunded.polymartProductId, revokedLicenseIds: [target], reason: 'refund',
    });
    const [event] = await receiver.waitFor(1, (r) => r.body.includes(target));
    expect(JSON.parse(event!.body)).toMatchObject({ type: 'licenses.revoke', data: { licenseId: target, reason: 'refund', marketplace: 'polymart' } });

    // A later purchase issues a new license: the refunded one has expired.
    const rebought = await send(WEBHOOK, purchaseBody(refunded.polymartProductId!, buyer));
    expect(rebought.json).toMatchObject({ created: true });
    expect(rebought.json.licenseKey).not.toBe(target);
  });

  it('answers a refund of an unknown buyer or product with an empty list, audited as a rejection', async () => {
    const product = await polymartProduct();
    const stranger = polymartUser();
    const before = await rowCounts();
    const unknownBuyer = await send(WEBHOOK, refundBody(product.polymartProductId!, stranger));
    expect(unknownBuyer.json).toEqual({ revokedLicenseIds: [], ignored: 'unknown customer' });
    const unknownProduct = await send(WEBHOOK, refundBody('no-such-product', stranger));
    expect(unknownProduct.json).toEqual({ revokedLicenseIds: [], ignored: 'unknown product' });
    expect(await rowCounts()).toEqual({ ...before, audit: before.audit + 2, nonces: before.nonces + 2 });
    const reasons = (await entriesFor('marketplace.license.reject', String(stranger))).map((e) => JSON.parse(e.data).reason);
    expect(reasons.sort()).toEqual(['unknown customer', 'unknown product']);
  });

  it("fills the license placeholder with the buyer's key: created or reused exactly as a purchase", async () => {
    const product = await createProduct(t, { polymartProductId: String(polymartUser()) });
    const user = polymartUser();
    const first = await send(PLACEHOLDER, placeholderBody(Number(product.polymartProductId), user, { license: 'pm-license-1', test: false }));
    expect(first.status, first.text).toBe(200);
    expect(first.json).toEqual({ value: expect.stringMatching(KEY) });
    const again = await send(PLACEHOLDER, placeholderBody(product.polymartProductId!, String(user)));
    expect(again.json).toEqual(first.json);
    const purchase = await send(WEBHOOK, purchaseBody(product.polymartProductId!, user));
    expect(purchase.json).toEqual({ licenseKey: first.json.value, created: false });
    const [customer] = await customersOf(user);
    expect(await licensesOf(customer!.id)).toHaveLength(1);
    const [created] = await entriesFor('marketplace.license.create', first.json.value);
    expect(JSON.parse(created!.data)).toMatchObject({
      marketplace: 'polymart', polymart: { event: 'placeholder', placeholder: '%%__LICENSE__%%', license: 'pm-license-1', test: false },
    });
  });

  it('refuses a placeholder request whose time is more than 300 s off, and answers 404 for an unknown product', async () => {
    const product = await polymartProduct();
    const user = polymartUser();
    for (const offset of [-301, 400]) {
      const res = await send(PLACEHOLDER, placeholderBody(product.polymartProductId!, user, { time: nowSeconds() + offset }));
      expect(res.status).toBe(401);
      expect(res.json.error).toMatch(/^time is \d+ s away from the server's clock \(at most 300 s allowed\)$/);
    }
    const inWindow = await send(PLACEHOLDER, placeholderBody(product.polymartProductId!, user, { time: nowSeconds() - 250 }));
    expect(inWindow.status).toBe(200);
    const unknown = await send(PLACEHOLDER, placeholderBody('no-such-product', user));
    expect(unknown.status).toBe(404);
    expect(unknown.json).toEqual({ error: 'No product has polymartProductId no-such-product' });
  });

  it('keeps polymartProductId unique among products (409), like marketplaceResourceId', async () => {
    const id = uniq('pm');
    const owner = await createProduct(t, { polymartProductId: id });
    expect(owner.polymartProductId).toBe(id);
    const message = `polymartProductId ${id} is already used by another product`;
    const taken = await t.admin('POST', '/products', { body: productBody({ polymartProductId: id }) });
    expect(taken.status).toBe(409);
    expect(taken.json).toEqual({ error: message });
    const other = await createProduct(t, { marketplaceResourceId: uniq('res') });
    const put = await t.admin('PUT', `/products/${other.id}`, { body: productBody({ polymartProductId: id }) });
    expect(put.status).toBe(409);
    expect(put.json).toEqual({ error: message });
    // Many products may have none; the other unique field still names itself.
    await createProduct(t, { polymartProductId: null });
    await createProduct(t, { polymartProductId: null });
    const resourceTaken = await t.admin('POST', '/products', { body: productBody({ marketplaceResourceId: (await t.admin('GET', `/products/${other.id}`)).json.marketplaceResourceId }) });
    expect(resourceTaken.json.error).toMatch(/^marketplaceResourceId .* is already used by another product$/);
    const empty = await t.admin('POST', '/products', { body: productBody({ polymartProductId: '' }) });
    expect(empty.status).toBe(400);
  });
});

describe('polymart configuration', () => {
  let t: TestApp;
  afterAll(() => t?.close());
  const send = signedSender(() => t);

  it('answers 503 on both routes while POLYMART_WEBHOOK_SECRET is unset', async () => {
    t = await startTestApp('sqlite', { POLYMART_WEBHOOK_SECRET: '' });
    for (const path of [WEBHOOK, PLACEHOLDER]) {
      const res = await send(path, { event: 'ping', time: nowSeconds(), nonce: uniq('nonce') });
      expect(res.status).toBe(503);
      expect(res.json).toEqual({ error: 'Polymart integration is not configured' });
    }
    await t.close();
  });

  it('checks placeholder requests against POLYMART_PLACEHOLDER_SECRET when set, and rate limits both routes with a JSON 429', async () => {
    t = await startTestApp('sqlite', { POLYMART_WEBHOOK_SECRET: SECRET, POLYMART_PLACEHOLDER_SECRET: 'placeholder-secret', WEBHOOK_RATE_LIMIT: '4' });
    const product = await createProduct(t, { polymartProductId: uniq('pm') });
    const body = placeholderBody(product.polymartProductId!, polymartUser());
    expect((await send(PLACEHOLDER, body)).status).toBe(401);
    expect((await send(PLACEHOLDER, body, { secret: 'placeholder-secret' })).status).toBe(200);
    expect((await send(WEBHOOK, { event: 'ping', time: nowSeconds(), nonce: uniq('nonce') })).status).toBe(200);
    expect((await send(WEBHOOK, { event: 'ping', time: nowSeconds(), nonce: uniq('nonce') })).status).toBe(200);
    const limited = await send(WEBHOOK, { event: 'ping', time: nowSeconds(), nonce: uniq('nonce') });
    expect(limited.status).toBe(429);
    expect(limited.json).toEqual({ error: 'Too many requests. Please try again shortly.' });
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
  });
});
