// Sales that carry the license's shape (docs/selling.md), black-box on both databases: tiers
// and their merged features, the one purchase rule through Polymart, the BuiltByBit purchase
// webhook and placeholder, staff renewals, lifecycle status, filters and stats, and the
// events a sale and the clock announce.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestClock } from '../../../test/helpers/clock.js';
import { auditEntries, createCustomer, createProduct, newLicense, readLicense, uniq, validate } from '../../../test/helpers/fixtures.js';
import { decodePayload } from '../../../test/helpers/jws.js';
import { DIALECTS, startTestApp, type TestApp } from '../../../test/helpers/test-app.js';
import { announceExpiring, announceGraceEnded, announceTrialEnding } from '../licenses/expiry-notices.js';
import { polymartSignature } from '../marketplace/polymart.signature.js';

const DAY = 86_400_000;
const POLYMART_SECRET = 'sales-polymart-secret';
const MARKETPLACE_SECRET = 'sales-marketplace-secret';
const ENV = {
  POLYMART_WEBHOOK_SECRET: POLYMART_SECRET,
  MARKETPLACE_SECRET,
  WEBHOOK_RATE_LIMIT: '100000',
  VALIDATION_RATE_LIMIT: '100000',
  WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
};

let seq = 0;
const numericId = () => `${Date.now() % 1e9}${(seq += 1)}`;
const nonce = () => randomBytes(16).toString('hex');

describe.each(DIALECTS)('sales (%s)', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(dialect, ENV);
  });
  afterAll(() => t.close());

  const polymart = (payload: object) => {
    const raw = JSON.stringify({ event: 'product.user.purchase', time: Math.floor(Date.now() / 1000), nonce: uniq('n'), payload });
    return { raw, send: () => t.req('POST', '/integrations/polymart', { rawBody: raw, headers: { 'content-type': 'application/json', 'x-polymart-signature': polymartSignature(raw, POLYMART_SECRET) } }) };
  };
  const polymartBuy = async (productId: string, userId: string) => {
    const res = await polymart({ product: { id: productId }, user: { id: userId } }).send();
    expect(res.status, res.text).toBe(200);
    return res.json as { licenseKey: string; created: boolean };
  };
  const bbbBuy = (body: Record<string, unknown>) =>
    t.req('POST', '/integrations/builtbybit/purchase', { body: { secret: MARKETPLACE_SECRET, purchase_date: String(Math.floor(Date.now() / 1000)), ...body } });
  const ordersOfLicense = async (licenseId: string) =>
    ((await t.admin('GET', '/orders?limit=1000')).json as any[]).filter((o) => o.licenseId === licenseId);
  const entriesAbout = async (name: string, licenseId: string) =>
    (await auditEntries(t, name)).filter((e) => e.data.includes(licenseId)).map((e) => JSON.parse(e.data));
  const customerOfPolymart = async (userId: string) =>
    ((await t.admin('GET', '/customers?limit=1000')).json as any[]).find((c) => c.socials.PolymartID === userId);

  describe('tiers', () => {
    it('merge product, tier and license features in bodies, receipts and license files; a tier is validated', async () => {
      const product = await createProduct(t, {
        features: { base: true, seats: 1, beta: 'on' },
        revealReasons: true,
        tiers: [{ code: 'pro', name: 'Pro', features: { seats: 10, pro: true, beta: null } }],
      });
      expect(product).toMatchObject({ tiers: [{ code: 'pro', name: 'Pro', features: { seats: 10, pro: true, beta: null }, marketplaceResourceId: null, polymartProductId: null }] });
      const license = await newLicense(t, { productId: product.id, tier: 'pro', features: { extra: 1 } });
      expect(license).toMatchObject({ tier: 'pro', trial: false, status: 'active', effectiveFeatures: { base: true, seats: 10, pro: true, extra: 1 } });
      expect(license.effectiveFeatures).not.toHaveProperty('beta');
      const answer = await validate(t, { licenseId: license.id, productId: product.id, hwid: 'H', nonce: nonce() });
      expect(decodePayload(answer.headers['validation-receipt'] as string).features).toEqual({ base: true, seats: 10, pro: true, extra: 1 });
      // live: a changed tier reaches the receipt at once (also on PostgreSQL's remembered path)
      await validate(t, { licenseId: license.id, productId: product.id, hwid: 'H' });
      expect((await t.admin('PATCH', `/products/${product.id}`, { body: { tiers: [{ code: 'pro', name: 'Pro', features: { seats: 20 } }] } })).status).toBe(200);
      const again = await validate(t, { licenseId: license.id, productId: product.id, hwid: 'H', nonce: nonce() });
      expect(decodePayload(again.headers['validation-receipt'] as string).features).toEqual({ base: true, seats: 20, beta: 'on', extra: 1 });
      const file = await t.admin('POST', `/licenses/${license.id}/license-file`, { body: {} });
      expect(file.status, file.text).toBe(200);
      expect(decodePayload(file.json.licenseFile).features).toEqual({ base: true, seats: 20, beta: 'on', extra: 1 });

      const unknown = await t.admin('POST', '/licenses', { body: { productId: product.id, customerId: license.customerId, tier: 'gold' } });
      expect(unknown.status).toBe(400);
      expect(unknown.json.error).toBe(`tier gold is not a tier of product ${product.id}`);
      expect((await t.admin('PATCH', `/licenses/${license.id}`, { body: { tier: 'gold' } })).status).toBe(400);
    });

    it('refuse removing a held tier (409 naming how many), repeated codes (400), more than 16 and marketplace ids another product or tier holds (409)', async () => {
      const resource = numericId();
      const product = await createProduct(t, { tiers: [{ code: 'pro', name: 'Pro', features: {}, marketplaceResourceId: resource }] });
      await newLicense(t, { productId: product.id, tier: 'pro' });
      await newLicense(t, { productId: product.id, tier: 'pro' });
      const removed = await t.admin('PATCH', `/products/${product.id}`, { body: { tiers: [] } });
      expect(removed.status).toBe(409);
      expect(removed.json.error).toBe('Tier pro is held by 2 licenses: move them to another tier first');
      const put = await t.admin('PUT', `/products/${product.id}`, { body: { name: 'P', productType: 'software', price: 1, requiresLicense: true, isSubscription: false } });
      expect(put.status).toBe(409);
      const twice = await t.admin('POST', '/products', { body: { name: 'x', productType: 's', price: 1, requiresLicense: true, isSubscription: false, tiers: [{ code: 'a', name: 'A', features: {} }, { code: 'a', name: 'B', features: {} }] } });
      expect(twice.status).toBe(400);
      expect(twice.json.error).toBe('tiers: code a is given twice');
      const many = Array.from({ length: 17 }, (_, i) => ({ code: `t${i}`, name: `T${i}`, features: {} }));
      expect((await t.admin('POST', '/products', { body: { name: 'x', productType: 's', price: 1, requiresLicense: true, isSubscription: false, tiers: many } })).status).toBe(400);
      // a tier's id against another product's own, and the other way round
      const clash = await t.admin('POST', '/products', { body: { name: 'x', productType: 's', price: 1, requiresLicense: true, isSubscription: false, marketplaceResourceId: resource } });
      expect(clash.status).toBe(409);
      expect(clash.json.error).toBe(`marketplaceResourceId ${resource} is already used by another product or tier`);
      const other = await createProduct(t, { polymartProductId: `pm${resource}` });
      const tierClash = await t.admin('PATCH', `/products/${product.id}`, {
        body: { tiers: [{ code: 'pro', name: 'Pro', features: {}, polymartProductId: other.polymartProductId }] },
      });
      expect(tierClash.status).toBe(409);
    });
  });

  describe('the purchase rule (Polymart)', () => {
    it('converts a held trial: same key and bindings, trial false, the expiry of a new sale from now, the tier, an order `conversion`', async () => {
      const pm = numericId();
      const product = await createProduct(t, { polymartProductId: pm, isSubscription: true, recurringPeriodDays: 30, price: 5, graceDays: 3 });
      const user = numericId();
      const customer = await createCustomer(t, { socials: { PolymartID: user } });
      const trial = await newLicense(t, { productId: product.id, customerId: customer.id, trial: true, expiresAtEpochMillis: Date.now() + 7 * DAY });
      await validate(t, { licenseId: trial.id, productId: product.id, hwid: 'H1' });
      const before = Date.now();
      expect(await polymartBuy(pm, user)).toEqual({ licenseKey: trial.id, created: false });
      const after = await readLicense(t, trial.id);
      expect(after).toMatchObject({ trial: false, usedHwids: ['H1'], graceDays: 3, status: 'active' });
      expect(after.expiresAtEpochMillis).toBeGreaterThanOrEqual(before + 30 * DAY);
      expect(after.expiresAtEpochMillis).toBeLessThan(before + 31 * DAY);
      expect(after.version).toBeGreaterThan(trial.version);
      expect(await ordersOfLicense(trial.id)).toMatchObject([{ kind: 'conversion', totalAmount: 5, productIds: [product.id] }]);
      const [entry] = await entriesAbout('licenses.trial.converted', trial.id);
      expect(entry).toMatchObject({ licenseId: trial.id, trial: false, previousExpiresAtEpochMillis: trial.expiresAtEpochMillis });
    });

    it('renews a subscription: same key, expiry + the period from the current expiry (also in grace), from now after grace; an order `renewal`', async () => {
      const pm = numericId();
      const product = await createProduct(t, { polymartProductId: pm, isSubscription: true, recurringPeriodDays: 30, graceDays: 2 });
      const user = numericId();
      const first = await polymartBuy(pm, user);
      expect(first.created).toBe(true);
      const key = first.licenseKey;
      const start = (await readLicense(t, key)).expiresAtEpochMillis!;
      expect(await polymartBuy(pm, user)).toEqual({ licenseKey: key, created: false });
      expect((await readLicense(t, key)).expiresAtEpochMillis).toBe(start + 30 * DAY);
      // in grace: from the expiry, keeping the key
      const lapsed = Date.now() - DAY;
      await t.admin('PATCH', `/licenses/${key}`, { body: { expiresAtEpochMillis: lapsed } });
      expect((await readLicense(t, key)).status).toBe('grace');
      expect((await polymartBuy(pm, user)).licenseKey).toBe(key);
      expect((await readLicense(t, key)).expiresAtEpochMillis).toBe(lapsed + 30 * DAY);
      // after grace: from now
      await t.admin('PATCH', `/licenses/${key}`, { body: { expiresAtEpochMillis: Date.now() - 10 * DAY } });
      const now = Date.now();
      expect((await polymartBuy(pm, user)).licenseKey).toBe(key);
      const renewed = (await readLicense(t, key)).expiresAtEpochMillis!;
      expect(renewed).toBeGreaterThanOrEqual(now + 30 * DAY);
      expect(renewed).toBeLessThan(now + 30 * DAY + 60_000);
      const orders = await ordersOfLicense(key);
      expect(orders.map((o) => o.kind).sort()).toEqual(['new', 'renewal', 'renewal', 'renewal']);
      const renewals = await entriesAbout('licenses.renewed', key);
      expect(renewals).toHaveLength(3);
      expect(renewals.map((r) => r.orderId).sort()).toEqual(orders.filter((o) => o.kind === 'renewal').map((o) => o.id).sort());
      expect(renewals.find((r) => r.previousExpiresAtEpochMillis === lapsed)).toMatchObject({ expiresAtEpochMillis: lapsed + 30 * DAY });
    });

    it("a tier's Polymart id sells the product at that tier: a new license at it, a held one moved (an order `upgrade`, licenses.tier.changed)", async () => {
      const base = numericId();
      const pro = numericId();
      const product = await createProduct(t, {
        polymartProductId: base,
        features: { seats: 1 },
        tiers: [{ code: 'pro', name: 'Pro', features: { seats: 10 }, polymartProductId: pro }],
      });
      const user = numericId();
      const { licenseKey } = await polymartBuy(base, user);
      expect((await readLicense(t, licenseKey)).tier).toBeNull();
      expect((await polymartBuy(pro, user)).licenseKey).toBe(licenseKey);
      const upgraded = await readLicense(t, licenseKey);
      expect(upgraded).toMatchObject({ tier: 'pro', effectiveFeatures: { seats: 10 } });
      expect((await ordersOfLicense(licenseKey)).map((o) => o.kind)).toEqual(['new', 'upgrade']);
      expect(await entriesAbout('licenses.tier.changed', licenseKey)).toMatchObject([{ licenseId: licenseKey, from: null, to: 'pro' }]);
      // a second buyer buying Pro first: a new license at the tier
      const other = await polymartBuy(pro, numericId());
      expect((await readLicense(t, other.licenseKey)).tier).toBe('pro');
      expect(product.id).toBe((await readLicense(t, other.licenseKey)).productId);
    });

    it('acts once for a redelivered nonce (a renewal is not applied twice)', async () => {
      const pm = numericId();
      await createProduct(t, { polymartProductId: pm, isSubscription: true, recurringPeriodDays: 30 });
      const user = numericId();
      const { licenseKey } = await polymartBuy(pm, user);
      const before = (await readLicense(t, licenseKey)).expiresAtEpochMillis!;
      const delivery = polymart({ product: { id: pm }, user: { id: user } });
      const answers = await Promise.all([delivery.send(), delivery.send(), delivery.send()]);
      expect(new Set(answers.map((a) => a.text)).size).toBe(1);
      expect((await readLicense(t, licenseKey)).expiresAtEpochMillis).toBe(before + 30 * DAY);
      expect((await ordersOfLicense(licenseKey))).toHaveLength(2);
      expect(await customerOfPolymart(user)).toBeDefined();
    });
  });

  describe('BuiltByBit', () => {
    it('the purchase webhook issues, renews and acts once per purchase identity; a tier addon moves it; unknown resources are acknowledged', async () => {
      const resource = numericId();
      const proAddon = numericId();
      const product = await createProduct(t, {
        marketplaceResourceId: resource,
        isSubscription: true,
        recurringPeriodDays: 30,
        price: 4,
        tiers: [{ code: 'pro', name: 'Pro', features: { pro: true }, marketplaceResourceId: proAddon }],
      });
      const user = numericId();
      const first = await bbbBuy({ user_id: user, resource_id: Number(resource), purchase_date: 1_767_225_600, price: '9.50', addon_id: '' });
      expect(first.status, first.text).toBe(200);
      expect(first.json).toMatchObject({ created: true, step: 'new', orderId: expect.any(String) });
      const key = first.json.licenseKey as string;
      const redelivered = await bbbBuy({ user_id: String(user), resource_id: resource, purchase_date: '1767225600', price: '9.50' });
      expect(redelivered.json).toEqual(first.json);
      const start = (await readLicense(t, key)).expiresAtEpochMillis!;
      const renewal = await bbbBuy({ user_id: user, resource_id: resource, purchase_date: 1_767_225_700 });
      expect(renewal.json).toMatchObject({ licenseKey: key, created: false, step: 'renewal' });
      expect((await readLicense(t, key)).expiresAtEpochMillis).toBe(start + 30 * DAY);
      const upgrade = await bbbBuy({ user_id: user, resource_id: resource, addon_id: proAddon, purchase_date: 1_767_225_800 });
      expect(upgrade.json).toMatchObject({ licenseKey: key, step: 'renewal' });
      expect(await readLicense(t, key)).toMatchObject({ tier: 'pro', effectiveFeatures: { pro: true }, expiresAtEpochMillis: start + 60 * DAY });
      const orders = await ordersOfLicense(key);
      expect(orders.map((o) => [o.kind, o.totalAmount])).toEqual([['new', 9.5], ['renewal', 4], ['renewal', 4]]);
      const customer = ((await t.admin('GET', `/customers?limit=1000`)).json as any[]).find((c) => c.socials.MarketplaceID === user);
      expect(customer).toMatchObject({ name: `Marketplace user ${user}`, email: `${user}@marketplace.invalid` });
      expect(product.id).toBe((await readLicense(t, key)).productId);

      const unknown = await bbbBuy({ user_id: user, resource_id: 'nothing-sold-here' });
      expect(unknown.status).toBe(200);
      expect(unknown.json).toEqual({ ignored: 'unknown resource' });
      expect((await auditEntries(t, 'marketplace.license.reject')).some((e) => e.data.includes('nothing-sold-here'))).toBe(true);
      const wrong = await bbbBuy({ user_id: user, resource_id: resource, secret: 'wrong' });
      expect(wrong.status).toBe(401);
      expect(wrong.json).toEqual({ error: 'Invalid secret' });
      const bad = await bbbBuy({ user_id: user, resource_id: resource, purchase_date: 'yesterday' });
      expect(bad.status).toBe(400);
      const badPrice = await bbbBuy({ user_id: user, resource_id: resource, price: 'free' });
      expect(badPrice.json).toEqual({ error: 'price must be a decimal number of at least 0' });
    });

    it('the placeholder keeps SPEC steps, but converts a held trial and moves a held license to a tier resource, recording the order', async () => {
      const resource = numericId();
      const pro = numericId();
      const product = await createProduct(t, { marketplaceResourceId: resource, price: 3, tiers: [{ code: 'pro', name: 'Pro', features: {}, marketplaceResourceId: pro }] });
      const user = numericId();
      const customer = await createCustomer(t, { socials: { MarketplaceID: user } });
      const trial = await newLicense(t, { productId: product.id, customerId: customer.id, trial: true, expiresAtEpochMillis: Date.now() + DAY });
      const placeholder = (resourceId: string) =>
        t.req('POST', '/marketplace', { body: { secret: MARKETPLACE_SECRET, user_id: user, resource_id: resourceId } });
      const converted = await placeholder(resource);
      expect(converted.text).toBe(trial.id);
      expect(await readLicense(t, trial.id)).toMatchObject({ trial: false, expiresAtEpochMillis: null });
      expect((await ordersOfLicense(trial.id)).map((o) => o.kind)).toEqual(['conversion']);
      expect((await placeholder(resource)).text).toBe(trial.id); // a download: no order
      expect((await placeholder(pro)).text).toBe(trial.id);
      expect((await readLicense(t, trial.id)).tier).toBe('pro');
      expect((await ordersOfLicense(trial.id)).map((o) => o.kind)).toEqual(['conversion', 'upgrade']);
    });
  });

  describe('staff renewals', () => {
    it('renew by the period or `days`, with an order when `amount` is given; 400 without a period, 409 revoked or perpetual', async () => {
      const product = await createProduct(t, { isSubscription: true, recurringPeriodDays: 30 });
      const expiry = Date.now() + DAY;
      const license = await newLicense(t, { productId: product.id, expiresAtEpochMillis: expiry });
      const renewed = await t.admin('POST', `/licenses/${license.id}/renew`, { body: {} });
      expect(renewed.status, renewed.text).toBe(200);
      expect(renewed.json).toMatchObject({ expiresAtEpochMillis: expiry + 30 * DAY, version: license.version + 1 });
      const paid = await t.admin('POST', `/licenses/${license.id}/renew`, { body: { days: 7, amount: 2.5 } });
      expect(paid.json.expiresAtEpochMillis).toBe(expiry + 37 * DAY);
      const [order] = await ordersOfLicense(license.id);
      expect(order).toMatchObject({ kind: 'renewal', totalAmount: 2.5 });
      const entries = await entriesAbout('licenses.renewed', license.id);
      expect(entries.map((e) => e.orderId).sort()).toEqual([null, order.id].sort());

      const plain = await newLicense(t, { expiresAtEpochMillis: expiry });
      const noPeriod = await t.admin('POST', `/licenses/${plain.id}/renew`, { body: {} });
      expect(noPeriod.status).toBe(400);
      expect(noPeriod.json.error).toMatch(/^days is required/);
      const perpetual = await newLicense(t, { productId: product.id });
      expect((await t.admin('POST', `/licenses/${perpetual.id}/renew`, { body: {} })).json).toEqual({ error: 'License does not expire' });
      await t.admin('POST', `/licenses/${license.id}/revoke`, { body: {} });
      const revoked = await t.admin('POST', `/licenses/${license.id}/renew`, { body: {} });
      expect(revoked.status).toBe(409);
      expect(revoked.json).toEqual({ error: 'License is revoked' });
      expect((await t.admin('POST', `/licenses/nope/renew`, { body: {} })).status).toBe(404);
    });
  });

  describe('the updates window (releases)', () => {
    it('a sale sets updatesUntil from updatesForDays, a renewal moves it by the period like the expiry, a conversion starts it from now', async () => {
      const pm = numericId();
      const product = await createProduct(t, { polymartProductId: pm, isSubscription: true, recurringPeriodDays: 30, updatesForDays: 365 });
      const user = numericId();
      const before = Date.now();
      const { licenseKey } = await polymartBuy(pm, user);
      const sold = await readLicense(t, licenseKey);
      expect(sold.updatesUntilEpochMillis).toBeGreaterThanOrEqual(before + 365 * DAY);
      expect(sold.updatesUntilEpochMillis).toBeLessThan(before + 365 * DAY + 60_000);
      await polymartBuy(pm, user);
      expect((await readLicense(t, licenseKey)).updatesUntilEpochMillis).toBe(sold.updatesUntilEpochMillis! + 30 * DAY);
      const renewed = await t.admin('POST', `/licenses/${licenseKey}/renew`, { body: { days: 7 } });
      expect(renewed.json.updatesUntilEpochMillis).toBe(sold.updatesUntilEpochMillis! + 37 * DAY);

      // a window that has passed is moved from now; a license without one keeps none
      const noWindow = await newLicense(t, { productId: product.id, expiresAtEpochMillis: Date.now() + DAY, updatesUntilEpochMillis: null });
      expect((await t.admin('POST', `/licenses/${noWindow.id}/renew`, { body: {} })).json.updatesUntilEpochMillis).toBeNull();
      const passed = await newLicense(t, { productId: product.id, expiresAtEpochMillis: Date.now() + DAY, updatesUntilEpochMillis: Date.now() - 10 * DAY });
      const now = Date.now();
      const moved = (await t.admin('POST', `/licenses/${passed.id}/renew`, { body: {} })).json.updatesUntilEpochMillis;
      expect(moved).toBeGreaterThanOrEqual(now + 30 * DAY);
      expect(moved).toBeLessThan(now + 30 * DAY + 60_000);

      // a trial's conversion is a sale: its window counts from the conversion
      const trialUser = numericId();
      const customer = await createCustomer(t, { socials: { PolymartID: trialUser } });
      const trial = await newLicense(t, { productId: product.id, customerId: customer.id, trial: true, expiresAtEpochMillis: Date.now() + 7 * DAY, updatesUntilEpochMillis: Date.now() + 7 * DAY });
      const converting = Date.now();
      expect((await polymartBuy(pm, trialUser)).licenseKey).toBe(trial.id);
      const converted = (await readLicense(t, trial.id)).updatesUntilEpochMillis!;
      expect(converted).toBeGreaterThanOrEqual(converting + 365 * DAY);
      expect(converted).toBeLessThan(converting + 365 * DAY + 60_000);
    });
  });

  describe('lifecycle', () => {
    it('status on every body, list filters `status` (comma-separated) and `trial`, stats `byStatus`', async () => {
      const customer = await createCustomer(t);
      const product = await createProduct(t, { graceDays: 2 });
      const clockProduct = await createProduct(t, { expiryBasis: 'firstValidation', validForDays: 7 });
      const now = Date.now();
      const make = (over: Record<string, unknown>) => newLicense(t, { customerId: customer.id, productId: product.id, ...over });
      const active = await make({ expiresAtEpochMillis: now + DAY });
      const grace = await make({ expiresAtEpochMillis: now - DAY });
      const expired = await make({ expiresAtEpochMillis: now - 3 * DAY });
      const notStarted = await make({ productId: clockProduct.id, expiresAtEpochMillis: undefined, trial: true });
      const revoked = await make({ expiresAtEpochMillis: null });
      await t.admin('POST', `/licenses/${revoked.id}/revoke`, { body: {} });
      const statuses = Object.fromEntries(
        await Promise.all([active, grace, expired, notStarted, revoked].map(async (l) => [l.id, (await readLicense(t, l.id)).status])),
      );
      expect(Object.values(statuses)).toEqual(['active', 'grace', 'expired', 'notStarted', 'revoked']);
      const ids = async (query: string) => ((await t.admin('GET', `/licenses?customerId=${customer.id}&${query}`)).json as any[]).map((l) => l.id);
      expect(await ids('status=grace')).toEqual([grace.id]);
      expect(await ids('status=active,notStarted')).toEqual([active.id, notStarted.id]);
      expect(await ids('status=expired,revoked')).toEqual([expired.id, revoked.id]);
      expect(await ids('trial=true')).toEqual([notStarted.id]);
      expect(await ids('trial=false&status=active')).toEqual([active.id]);
      const bad = await t.admin('GET', '/licenses?status=active,old');
      expect(bad.status).toBe(400);
      const stats = (await t.admin('GET', '/licenses/stats')).json;
      for (const status of ['active', 'notStarted', 'grace', 'expired', 'revoked']) expect(stats.byStatus[status]).toBeGreaterThanOrEqual(1);
      expect(Object.values(stats.byStatus as Record<string, number>).reduce((a, b) => a + b, 0)).toBe(stats.active + stats.expired);
    });

    it('announce licenses.grace.ended and licenses.trial.ending once; a trial announces no licenses.expiring', async () => {
      const endpoint = await t.admin('POST', '/webhook-endpoints', {
        body: { url: 'http://127.0.0.1:9/hook', events: ['licenses.grace.ended', 'licenses.trial.ending', 'licenses.expiring'] },
      });
      expect(endpoint.status, endpoint.text).toBe(201);
      const time = useTestClock();
      const product = await createProduct(t, { graceDays: 1 });
      const graced = await newLicense(t, { productId: product.id, expiresAtEpochMillis: time.now() + 1000 });
      const alreadyExpired = await newLicense(t, { productId: product.id, expiresAtEpochMillis: time.now() - 5 * DAY });
      const trial = await newLicense(t, { trial: true, expiresAtEpochMillis: time.now() + 2 * DAY });
      const events = async (type: string, id: string) =>
        (await t.app.db.selectFrom('webhook_outbox').select('body').where('type', '=', type).where('body', 'like', `%${id}%`).execute()).length;

      await announceExpiring(t.app.storage);
      expect(await events('licenses.expiring', trial.id)).toBe(0);
      expect(await events('licenses.expiring', graced.id)).toBe(1);
      await announceTrialEnding(t.app.storage);
      expect(await events('licenses.trial.ending', trial.id)).toBe(0); // two days ahead
      time.advance(DAY + 60_000);
      await Promise.all([announceTrialEnding(t.app.storage), announceTrialEnding(t.app.storage)]);
      expect(await events('licenses.trial.ending', trial.id)).toBe(1);

      await Promise.all([announceGraceEnded(t.app.storage), announceGraceEnded(t.app.storage)]);
      expect(await events('licenses.grace.ended', alreadyExpired.id)).toBe(1);
      expect(await events('licenses.grace.ended', graced.id)).toBe(1); // its day of grace is over too
      time.advance(DAY);
      await announceGraceEnded(t.app.storage);
      expect(await events('licenses.grace.ended', graced.id)).toBe(1);
      expect((await t.admin('DELETE', `/webhook-endpoints/${endpoint.json.id}`)).status).toBe(204);
    });
  });
});
