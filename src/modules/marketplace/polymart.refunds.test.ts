// What a Polymart vendor meets after the sale, on both databases: a refund marks the order
// refunded (revenue leaves it out), a refunded buyer's download issues no new license,
// Polymart's test button creates nothing, and the buyer's username is kept on the customer.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEntries, createProduct, uniq } from '../../../test/helpers/fixtures.js';
import { DIALECTS, startTestApp, type TestApp } from '../../../test/helpers/test-app.js';
import { PLACEHOLDER_TEST_VALUE } from './polymart.service.js';
import { polymartSignature } from './polymart.signature.js';

const SECRET = 'test-polymart-secret';
const WEBHOOK = '/integrations/polymart';
const PLACEHOLDER = '/integrations/polymart/placeholder';

let seq = 0;
const polymartUser = () => Number(`${Date.now() % 1e9}${(seq += 1)}`);
const nowSeconds = () => Math.floor(Date.now() / 1000);

describe.each(DIALECTS)('polymart refunds, tests and usernames (%s)', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(dialect, { POLYMART_WEBHOOK_SECRET: SECRET, WEBHOOK_RATE_LIMIT: '100000' });
  });
  afterAll(() => t?.close());

  const send = (path: string, body: object) => {
    const raw = JSON.stringify(body);
    return t.req('POST', path, { rawBody: raw, headers: { 'content-type': 'application/json', 'x-polymart-signature': polymartSignature(raw, SECRET) } });
  };
  const event = (name: string, productId: string, user: unknown) => ({
    event: name, time: nowSeconds(), nonce: uniq('nonce'), payload: { product: { id: productId }, user },
  });
  const placeholder = (productId: string, user: number, over: Record<string, unknown> = {}) =>
    send(PLACEHOLDER, { user, product: productId, nonce: uniq('nonce'), time: nowSeconds(), placeholder: '%%__LICENSE__%%', ...over });
  const customerOf = async (user: number) =>
    ((await t.admin('GET', '/customers')).json as { id: string; name: string; socials: Record<string, string> }[]).find(
      (c) => c.socials.PolymartID === String(user),
    );
  const counts = async () => {
    const count = async (table: 'customers' | 'licenses' | 'orders' | 'audit_entries') =>
      Number((await t.app.db.selectFrom(table).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
    return { customers: await count('customers'), licenses: await count('licenses'), orders: await count('orders'), audit: await count('audit_entries') };
  };

  it('marks the order of a refunded purchase refunded, and revenue (refunded=false) leaves it out', async () => {
    const product = await createProduct(t, { polymartProductId: uniq('pm'), price: 12.5 });
    const user = polymartUser();
    const bought = await send(WEBHOOK, event('product.user.purchase', product.polymartProductId!, { id: user }));
    const key = bought.json.licenseKey as string;
    const customer = (await customerOf(user))!;
    const [order] = (await t.admin('GET', `/orders?customerId=${customer.id}`)).json as { id: string; refundedAtEpochMillis: number | null }[];
    expect(order).toMatchObject({ licenseIds: [key], totalAmount: 12.5 });
    expect(order).not.toHaveProperty('refundedAtEpochMillis');

    const before = Date.now();
    const refund = await send(WEBHOOK, event('product.user.purchaseRemoved', product.polymartProductId!, { id: user }));
    expect(refund.json).toEqual({ revokedLicenseIds: [key] });
    const refunded = (await t.admin('GET', `/orders/${order!.id}`)).json;
    expect(refunded).toMatchObject({ totalAmount: 12.5, refundedAtEpochMillis: expect.any(Number) });
    expect(refunded.refundedAtEpochMillis).toBeGreaterThanOrEqual(before);

    const standing = (await t.admin('GET', `/orders?customerId=${customer.id}&refunded=false`)).json as unknown[];
    expect(standing).toEqual([]);
    const refundedList = (await t.admin('GET', `/orders?customerId=${customer.id}&refunded=true`)).json as { id: string }[];
    expect(refundedList.map((o) => o.id)).toEqual([order!.id]);
    const [entry] = (await auditEntries(t, 'orders.update')).filter((e) => e.data.includes(order!.id));
    expect(entry!.performedBy).toBe('polymart');
    const [summary] = (await auditEntries(t, 'marketplace.license.revoke')).filter((e) => e.data.includes(key));
    expect(JSON.parse(summary!.data)).toMatchObject({ revokedLicenseIds: [key], refundedOrderIds: [order!.id] });
    expect(JSON.parse(entry!.data)).toMatchObject({ id: order!.id, refundedAtEpochMillis: refunded.refundedAtEpochMillis, marketplace: 'polymart' });

    // A staff edit that does not mention the refund keeps it; null undoes it.
    const body = { customerId: customer.id, productIds: [product.id], totalAmount: 12.5, licenseIds: [key] };
    expect((await t.admin('PUT', `/orders/${order!.id}`, { body })).json.refundedAtEpochMillis).toBe(refunded.refundedAtEpochMillis);
    expect((await t.admin('PUT', `/orders/${order!.id}`, { body: { ...body, refundedAtEpochMillis: null } })).json).not.toHaveProperty('refundedAtEpochMillis');
  });

  it("answers a refunded buyer's download with the revoked key, issuing no new license; a new purchase issues one", async () => {
    const product = await createProduct(t, { polymartProductId: uniq('pm') });
    const user = polymartUser();
    const key = (await send(WEBHOOK, event('product.user.purchase', product.polymartProductId!, { id: user }))).json.licenseKey as string;
    await send(WEBHOOK, event('product.user.purchaseRemoved', product.polymartProductId!, { id: user }));
    const before = await counts();

    const download = await placeholder(product.polymartProductId!, user);
    expect(download.status).toBe(200);
    expect(download.json).toEqual({ value: key });
    expect(await counts()).toEqual({ ...before, audit: before.audit + 1 });
    const [reject] = (await auditEntries(t, 'marketplace.license.reject')).filter((e) => e.data.includes(key));
    expect(JSON.parse(reject!.data)).toMatchObject({ marketplace: 'polymart', reason: 'refunded', licenseId: key });
    const validation = await t.req('POST', '/licenses/validate', { body: { licenseId: key, productId: product.id, hwid: 'HW-1' } });
    expect(validation.json).toEqual({ valid: false });

    const again = await send(WEBHOOK, event('product.user.purchase', product.polymartProductId!, { id: user }));
    expect(again.json).toMatchObject({ created: true });
    expect(again.json.licenseKey).not.toBe(key);
    expect((await placeholder(product.polymartProductId!, user)).json).toEqual({ value: again.json.licenseKey });
  });

  it("answers Polymart's test button with a sample value and creates nothing", async () => {
    const product = await createProduct(t, { polymartProductId: uniq('pm') });
    const user = polymartUser();
    const before = await counts();
    const test = await placeholder(product.polymartProductId!, user, { test: true });
    expect(test.status).toBe(200);
    expect(test.json).toEqual({ value: PLACEHOLDER_TEST_VALUE });
    const unknown = await placeholder('no-such-product', user, { test: true });
    expect(unknown.status).toBe(404);
    expect(await counts()).toEqual(before);
    expect(await customerOf(user)).toBeUndefined();
  });

  it("keeps the buyer's Polymart username as the customer's name and socials.PolymartUsername", async () => {
    const product = await createProduct(t, { polymartProductId: uniq('pm') });
    const user = polymartUser();
    await send(WEBHOOK, event('product.user.purchase', product.polymartProductId!, { id: user, username: 'BlockBuilder42' }));
    expect(await customerOf(user)).toMatchObject({ name: 'BlockBuilder42', socials: { PolymartID: String(user), PolymartUsername: 'BlockBuilder42' } });
    const found = (await t.admin('GET', '/customers?q=blockbuilder')).json as { socials: Record<string, string> }[];
    expect(found.map((c) => c.socials.PolymartID)).toContain(String(user));

    // A buyer first seen by a download (no username) gains it with their purchase.
    const other = await createProduct(t, { polymartProductId: uniq('pm') });
    const later = polymartUser();
    await placeholder(other.polymartProductId!, later);
    expect(await customerOf(later)).toMatchObject({ name: `Polymart user ${later}` });
    await send(WEBHOOK, event('product.user.purchase', other.polymartProductId!, { id: later, username: 'LateBuyer' }));
    expect(await customerOf(later)).toMatchObject({ name: 'LateBuyer', socials: { PolymartUsername: 'LateBuyer' } });
    const [update] = (await auditEntries(t, 'customers.update')).filter((e) => e.data.includes('LateBuyer'));
    expect(JSON.parse(update!.data)).toMatchObject({ marketplace: 'polymart' });
  });
});
