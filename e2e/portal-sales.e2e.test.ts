// Issue #35 in the portal, in a real browser against the real service (SQLite, HTTP):
// a product's tiers (add, edit, remove; the browser's checks, the API's 409s beside the
// field and for a tier licenses hold); the marketplace ids of products and tiers in the list;
// a license's tier (changed by PATCH), its status in words ("In grace until <date>",
// "Trial, ends <date>", "Not started", "Active", "Expired", "Revoked"), Renew (with an
// order, with days, refused for a revoked or perpetual license), its orders by kind; the
// status (several) and trial filters; the create form filling a subscription's expiry; the
// 1280 px list with a not-started trial in view; licenses by status on the dashboard.
// States are made by dates through the API (the browser and the service share the clock).
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCustomer, createProduct, newLicense, readLicense } from '../test/helpers/fixtures.js';
import { ADMIN, startTestApp, type TestApp } from '../test/helpers/test-app.js';
import { LAPTOP, launchBrowser, openPage, pageErrors, screenshot, signIn } from './support/browser.js';
import { layoutFacts, pageScreenshot } from './support/layout.js';

const STEP = 90_000;
const DAY = 86_400_000;

interface TierView {
  code: string;
  name: string;
  features: Record<string, unknown>;
  marketplaceResourceId?: string | null;
  polymartProductId?: string | null;
}

describe('portal: selling (tiers, status, renew, orders by kind)', () => {
  let t: TestApp;
  let browser: Browser;
  let page: Page;
  /** Method, path and body of every API write the page sends. */
  const writes: { call: string; body: unknown }[] = [];
  let subscription: { id: string; name: string };
  let customer: { id: string; name: string; email: string };

  beforeAll(async () => {
    [t, browser] = await Promise.all([startTestApp('sqlite'), launchBrowser()]);
    page = await openPage(browser, LAPTOP);
    page.on('request', (request) => {
      if (request.method() === 'GET') return;
      const text = request.postData();
      writes.push({ call: `${request.method()} ${new URL(request.url()).pathname}`, body: text ? JSON.parse(text) : undefined });
    });
    await signIn(page, t.baseUrl, ADMIN.username, ADMIN.password);
    subscription = await createProduct(t, {
      name: 'Monthly Plugin',
      isSubscription: true,
      recurringPeriodDays: 30,
      graceDays: 3,
      marketplaceResourceId: 'bbb-100',
      polymartProductId: 'pm-100',
    });
    customer = await createCustomer(t, { name: 'Subscriber' });
  }, STEP);

  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  const fieldError = (label: string) => page.locator('.field', { has: page.getByLabel(label, { exact: true }) }).locator('.field-error');
  const tiersOf = async (productId: string) => ((await t.admin('GET', `/products/${productId}`)).json as { tiers: TierView[] }).tiers;
  /** A date-time as the portal shows it (the browser's locale and zone). */
  const shown = (at: number) => page.evaluate((ms) => new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'medium' }).format(new Date(ms)), at);
  const statusText = async (licenseId: string) => {
    await page.goto(`${t.baseUrl}/portal/licenses/${licenseId}`);
    return page.getByTestId('license-status').innerText();
  };

  it('adds, edits and removes tiers; the browser and the API name the field; a tier licenses hold is not removed (409)', async () => {
    const other = await createProduct(t, { name: 'Other Plugin', marketplaceResourceId: 'other-1' });
    await page.goto(`${t.baseUrl}/portal/products/${subscription.id}`);
    const panel = page.getByTestId('tiers-panel');
    await panel.getByText('No tiers').waitFor();
    await panel.getByRole('button', { name: 'Add tier' }).click();
    await page.getByLabel('Tier code').fill('Pro!');
    writes.length = 0;
    await page.getByRole('button', { name: 'Add tier' }).click();
    // The browser's checks, every field at once, nothing sent.
    expect(await fieldError('Tier code').innerText()).toMatch(/^Use lower-case letters, digits, "_" or "-" \(starting with a letter or digit, at most 32\)\.$/);
    expect(await fieldError('Tier name').innerText()).toBe('Required.');
    await page.getByLabel('Tier code').fill('pro');
    await page.getByLabel('Tier name').fill('Pro');
    // The product's own id cannot sell a tier too: the browser knows.
    await page.getByLabel('Tier marketplace resource id').fill('bbb-100');
    await page.getByRole('button', { name: 'Add tier' }).click();
    expect(await fieldError('Tier marketplace resource id').innerText()).toBe('This product or another of its tiers already sells under this id.');
    expect(writes).toEqual([]);
    // Another product's id: only the server knows (409 beside the field).
    await page.getByLabel('Tier marketplace resource id').fill('other-1');
    await page.getByRole('button', { name: 'Add tier' }).click();
    await expect.poll(() => fieldError('Tier marketplace resource id').innerText()).toMatch(/already used by another product or tier/);
    expect(writes.map((w) => w.call)).toEqual([`PATCH /products/${subscription.id}`]);

    await page.getByLabel('Tier marketplace resource id').fill('bbb-101');
    await page.getByLabel('Tier Polymart product id').fill('pm-101');
    const editor = panel.getByTestId('features-editor');
    await editor.getByRole('button', { name: 'Add feature' }).click();
    await page.getByLabel('Feature 1 key').fill('seats');
    await page.getByLabel('Feature 1 type').selectOption('integer');
    await page.getByLabel('Feature 1 value').fill('10');
    await page.getByRole('button', { name: 'Add tier' }).click();
    await panel.getByText('Tier Pro added.').waitFor();
    expect(await tiersOf(subscription.id)).toEqual([{ code: 'pro', name: 'Pro', features: { seats: 10 }, marketplaceResourceId: 'bbb-101', polymartProductId: 'pm-101' }]);
    expect(await panel.getByTestId('tier-row').innerText()).toMatch(/pro\s+Pro\s+seats: 10\s+BuiltByBit bbb-101\s*Polymart pm-101/);

    await panel.getByRole('button', { name: 'Edit tier pro' }).click();
    await page.getByLabel('Tier name').fill('Pro Plus');
    await page.getByRole('button', { name: 'Save tier' }).click();
    await panel.getByText('Tier Pro Plus saved.').waitFor();
    expect((await tiersOf(subscription.id))[0]).toMatchObject({ code: 'pro', name: 'Pro Plus', features: { seats: 10 } });

    // A second tier, then a license at pro: removing pro is refused, team goes.
    await panel.getByRole('button', { name: 'Add tier' }).click();
    await page.getByLabel('Tier code').fill('team');
    await page.getByLabel('Tier name').fill('Team');
    await page.getByRole('button', { name: 'Add tier' }).click();
    await panel.getByText('Tier Team added.').waitFor();
    await newLicense(t, { customerId: customer.id, productId: subscription.id, tier: 'pro' });
    await panel.getByRole('button', { name: 'Remove tier pro' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('button', { name: 'Remove tier' }).click();
    await expect.poll(() => dialog.getByRole('alert').innerText()).toBe('Not removed: Tier pro is held by 1 license: move them to another tier first');
    await screenshot(page, 'tier-remove-refused');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    expect((await tiersOf(subscription.id)).map((tier) => tier.code)).toEqual(['pro', 'team']);
    await panel.getByRole('button', { name: 'Remove tier team' }).click();
    await dialog.getByRole('button', { name: 'Remove tier' }).click();
    await panel.getByText('Tier Team removed.').waitFor();
    expect((await tiersOf(subscription.id)).map((tier) => tier.code)).toEqual(['pro']);
    expect(other.marketplaceResourceId).toBe('other-1');
  }, STEP);

  it('lists the marketplace ids of each product and of its tiers', async () => {
    await page.goto(`${t.baseUrl}/portal/products`);
    const row = page.getByRole('row', { name: /Monthly Plugin/ });
    await expect.poll(() => row.getByTestId('product-marketplace-ids').innerText()).toMatch(/^BuiltByBit bbb-100\s+Polymart pm-100\s+Pro Plus:\s+BuiltByBit bbb-101\s+Polymart pm-101$/);
    expect(await page.getByRole('row', { name: /Other Plugin/ }).getByTestId('product-marketplace-ids').innerText()).toBe('BuiltByBit other-1');
  }, STEP);

  it('says each status in words: in grace until, trial ends, not started, active, expired, revoked', async () => {
    const now = Date.now();
    const grace = await newLicense(t, { customerId: customer.id, productId: subscription.id, expiresAtEpochMillis: now - DAY, graceDays: 5 });
    expect(grace.status).toBe('grace');
    expect(await statusText(grace.id)).toBe(`In grace until ${await shown(grace.expiresAtEpochMillis! + 5 * DAY)}`);
    await screenshot(page, 'license-in-grace');

    const trial = await newLicense(t, { customerId: customer.id, productId: subscription.id, trial: true, expiresAtEpochMillis: now + 10 * DAY });
    expect(await statusText(trial.id)).toBe(`Trial, ends ${await shown(trial.expiresAtEpochMillis!)}`);
    expect(await page.getByTestId('license-trial').innerText()).toMatch(/^Yes/);

    const notStarted = await newLicense(t, { customerId: customer.id, productId: subscription.id, trial: true, expiryBasis: 'firstValidation', validForDays: 14 });
    expect(notStarted.status).toBe('notStarted');
    expect(await statusText(notStarted.id)).toBe('Not started');
    expect(await page.getByTestId('license-expiry').innerText()).toBe('Trial not started (14 days from first use)');

    const active = await newLicense(t, { customerId: customer.id, productId: subscription.id, expiresAtEpochMillis: now + 10 * DAY });
    expect(await statusText(active.id)).toBe('Active');
    // Past the expiry and its grace days.
    const expired = await newLicense(t, { customerId: customer.id, productId: subscription.id, expiresAtEpochMillis: now - 10 * DAY, graceDays: 5 });
    expect(await statusText(expired.id)).toBe('Expired');
    expect((await t.admin('POST', `/licenses/${active.id}/revoke`, { body: { reason: 'refund' } })).status).toBe(200);
    expect(await statusText(active.id)).toBe('Revoked');
  }, STEP);

  it("shows the license's tier by name and changes it with a PATCH", async () => {
    const license = await newLicense(t, { customerId: customer.id, productId: subscription.id, tier: 'pro' });
    await page.goto(`${t.baseUrl}/portal/licenses/${license.id}`);
    await expect.poll(() => page.getByTestId('license-tier').innerText()).toBe('Pro Plus (pro)');
    expect(await page.getByTestId('license-features').innerText()).toContain('seats: 10');
    await page.getByLabel('Tier', { exact: true }).selectOption('');
    writes.length = 0;
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByText('License saved.').waitFor();
    expect(writes).toEqual([{ call: `PATCH /licenses/${license.id}`, body: { tier: null, version: license.version } }]);
    await expect.poll(() => page.getByTestId('license-tier').innerText()).toBe('Base (no tier)');
    expect((await readLicense(t, license.id)).tier).toBeNull();
    await page.getByLabel('Tier', { exact: true }).selectOption('pro');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await expect.poll(() => page.getByTestId('license-tier').innerText()).toBe('Pro Plus (pro)');
    expect((await readLicense(t, license.id)).tier).toBe('pro');
  }, STEP);

  it('renews by the period with a renewal order, by days given, and shows the 409 of a revoked or perpetual license; orders read by kind', async () => {
    const license = await newLicense(t, { customerId: customer.id, productId: subscription.id, expiresAtEpochMillis: Date.now() + 2 * DAY });
    // An order of another license of the same customer and product stays off this page.
    const elsewhere = await newLicense(t, { customerId: customer.id, productId: subscription.id, expiresAtEpochMillis: Date.now() + 2 * DAY });
    for (const [kind, licenseId] of [['new', license.id], ['upgrade', license.id], ['renewal', elsewhere.id]] as const) {
      const res = await t.admin('POST', '/orders', { body: { customerId: customer.id, productIds: [subscription.id], totalAmount: 9.99, kind, licenseId } });
      expect(res.status).toBe(201);
    }
    await page.goto(`${t.baseUrl}/portal/licenses/${license.id}`);
    const orders = page.getByTestId('license-orders');
    await expect.poll(() => orders.getByTestId('license-order-kinds').innerText()).toBe('New license × 1 · Tier change × 1');

    const dialog = page.getByRole('dialog');
    await page.getByRole('button', { name: 'Renew' }).click();
    expect(await dialog.getByLabel('Days to add').getAttribute('placeholder')).toBe('30');
    await dialog.getByLabel('Days to add').fill('40000');
    writes.length = 0;
    await dialog.getByRole('button', { name: 'Renew' }).click();
    expect(await fieldError('Days to add').innerText()).toBe('Enter 1 to 36500 days.');
    expect(writes).toEqual([]);
    await dialog.getByLabel('Days to add').fill('');
    await dialog.getByLabel('Amount paid (optional)').fill('4.99');
    await dialog.getByRole('button', { name: 'Renew' }).click();
    await page.getByText('License renewed; the payment is recorded as a renewal order.').waitFor();
    expect(writes).toEqual([{ call: `POST /licenses/${license.id}/renew`, body: { amount: 4.99 } }]);
    const renewed = await readLicense(t, license.id);
    expect(renewed.expiresAtEpochMillis).toBe(license.expiresAtEpochMillis! + 30 * DAY);
    await expect.poll(() => page.getByTestId('license-expiry').innerText()).toBe(await shown(renewed.expiresAtEpochMillis!));
    await expect.poll(() => orders.getByTestId('license-order-kinds').innerText()).toBe('New license × 1 · Renewal × 1 · Tier change × 1');
    const rows = await orders.locator('tbody tr').allInnerTexts();
    expect(rows).toHaveLength(3);
    expect(rows[0]).toMatch(/Renewal[\s\S]*4\.99/);
    await screenshot(page, 'license-renewed-orders');

    await page.getByRole('button', { name: 'Renew' }).click();
    await dialog.getByLabel('Days to add').fill('7');
    await dialog.getByRole('button', { name: 'Renew' }).click();
    await page.getByText('License renewed.').waitFor();
    expect((await readLicense(t, license.id)).expiresAtEpochMillis).toBe(renewed.expiresAtEpochMillis! + 7 * DAY);

    expect((await t.admin('POST', `/licenses/${license.id}/revoke`, { body: {} })).status).toBe(200);
    await page.getByRole('button', { name: 'Refresh' }).click();
    await page.getByTestId('license-revoked').waitFor();
    await page.getByRole('button', { name: 'Renew' }).click();
    await dialog.getByRole('button', { name: 'Renew' }).click();
    await expect.poll(() => dialog.getByRole('alert').innerText()).toBe('Not renewed: License is revoked');
    await dialog.getByRole('button', { name: 'Cancel' }).click();

    const perpetual = await newLicense(t, { customerId: customer.id, productId: subscription.id, expiresAtEpochMillis: null });
    await page.goto(`${t.baseUrl}/portal/licenses/${perpetual.id}`);
    await page.getByRole('button', { name: 'Renew' }).click();
    await dialog.getByRole('button', { name: 'Renew' }).click();
    await expect.poll(() => dialog.getByRole('alert').innerText()).toBe('Not renewed: License does not expire');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    expect((await readLicense(t, perpetual.id)).expiresAtEpochMillis).toBeNull();
  }, STEP);

  it('filters the list by several statuses and by trial, each row with its status badge', async () => {
    const buyer = await createCustomer(t, { name: 'Filter Buyer' });
    const now = Date.now();
    const base = { customerId: buyer.id, productId: subscription.id };
    const active = await newLicense(t, { ...base, expiresAtEpochMillis: now + 10 * DAY });
    const grace = await newLicense(t, { ...base, expiresAtEpochMillis: now - DAY, graceDays: 5 });
    const expired = await newLicense(t, { ...base, expiresAtEpochMillis: now - 10 * DAY });
    const notStarted = await newLicense(t, { ...base, trial: true, expiryBasis: 'firstValidation', validForDays: 14 });
    const trial = await newLicense(t, { ...base, trial: true, expiresAtEpochMillis: now + 5 * DAY });
    await page.goto(`${t.baseUrl}/portal/licenses?customerId=${buyer.id}`);
    const region = page.getByRole('region', { name: 'Licenses' });
    const keys = () => region.locator('tbody tr td:first-child').allInnerTexts();
    await expect.poll(keys).toEqual([trial.id, notStarted.id, expired.id, grace.id, active.id]);
    const badge = (id: string) => page.getByRole('row', { name: new RegExp(id) }).locator('.badge[data-status]').innerText();
    expect(await badge(active.id)).toBe('Active');
    expect(await badge(grace.id)).toBe('In grace');
    expect(await page.getByRole('row', { name: new RegExp(grace.id) }).locator('.badge[data-status]').getAttribute('title')).toBe(
      `In grace until ${await shown(grace.expiresAtEpochMillis! + 5 * DAY)}`,
    );
    expect(await badge(expired.id)).toBe('Expired');
    expect(await badge(notStarted.id)).toBe('Not started');
    expect(await badge(trial.id)).toBe('Trial');

    await page.getByLabel('Status').selectOption(['grace', 'notStarted']);
    await expect.poll(keys).toEqual([notStarted.id, grace.id]);
    expect(new URL(page.url()).searchParams.get('status')).toBe('notStarted,grace');
    await page.getByLabel('Trial', { exact: true }).selectOption('true');
    await expect.poll(keys).toEqual([notStarted.id]);
    await page.getByLabel('Status').selectOption('');
    await expect.poll(keys).toEqual([trial.id, notStarted.id]);
    await page.getByLabel('Trial', { exact: true }).selectOption('false');
    await expect.poll(keys).toEqual([expired.id, grace.id, active.id]);
    // The address keeps the filters: a reload shows the same list.
    await page.goto(`${t.baseUrl}/portal/licenses?customerId=${buyer.id}&status=active,expired&trial=false`);
    await expect.poll(keys).toEqual([expired.id, active.id]);
    expect(await page.getByLabel('Status').evaluate((select) => Array.from((select as unknown as { selectedOptions: { value: string }[] }).selectedOptions, (o) => o.value))).toEqual(['active', 'expired']);
  }, STEP);

  it("fills the expiry from a subscription's period when the product is chosen (editable), with the tier and trial", async () => {
    const plain = await createProduct(t, { name: 'One-off Tool' });
    await page.goto(`${t.baseUrl}/portal/licenses/new`);
    await page.getByLabel('Customer', { exact: true }).selectOption({ label: `${customer.name} (${customer.email})` });
    const expires = page.getByLabel('Expires at');
    const before = Date.now();
    await page.getByLabel('Product', { exact: true }).selectOption({ label: subscription.name });
    const filled = await expires.inputValue();
    const local = (ms: number) =>
      page.evaluate((at) => {
        const d = new Date(at);
        const pad = (n: number) => String(n).padStart(2, '0');
        return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
      }, ms);
    expect([await local(before + 30 * DAY), await local(Date.now() + 30 * DAY)]).toContain(filled);
    expect(await page.locator('.field', { has: expires }).locator('.field-hint').innerText()).toBe(
      `One billing period (30 days) of ${subscription.name} from now; change it if needed.`,
    );
    // A product without a period empties what was filled; back again fills it.
    await page.getByLabel('Product', { exact: true }).selectOption({ label: plain.name });
    expect(await expires.inputValue()).toBe('');
    await page.getByLabel('Product', { exact: true }).selectOption({ label: subscription.name });
    expect(await expires.inputValue()).not.toBe('');
    // Edited by hand, it stays when the product changes.
    await expires.fill('2031-01-02T03:04');
    await page.getByLabel('Product', { exact: true }).selectOption({ label: plain.name });
    expect(await expires.inputValue()).toBe('2031-01-02T03:04');
    await page.getByLabel('Product', { exact: true }).selectOption({ label: subscription.name });
    expect(await expires.inputValue()).toBe('2031-01-02T03:04');
    await expires.fill(filled);

    await page.getByLabel('Tier', { exact: true }).selectOption('pro');
    await page.getByLabel('Trial', { exact: true }).check();
    await page.getByRole('button', { name: 'Issue license' }).click();
    await page.getByRole('heading', { level: 1, name: 'License' }).waitFor();
    const issued = await readLicense(t, (await page.getByTestId('license-key').innerText()).trim());
    expect(issued).toMatchObject({ tier: 'pro', trial: true, status: 'active' });
    expect(Math.abs(issued.expiresAtEpochMillis! - (before + 30 * DAY))).toBeLessThan(2 * 60_000);
    expect(await page.getByTestId('license-status').innerText()).toMatch(/^Trial, ends /);
  }, STEP);

  it('keeps every column of the 1280 px licenses list in view with a not-started trial in it', async () => {
    const long = await createCustomer(t, { name: 'Northwind Traders International', email: 'accounts.payable.department@northwind-traders.example' });
    const trialProduct = await createProduct(t, { name: 'Northwind Desktop Suite', tiers: [{ code: 'enterprise', name: 'Enterprise', features: {} }] });
    const trial = await newLicense(t, { customerId: long.id, productId: trialProduct.id, trial: true, tier: 'enterprise', expiryBasis: 'firstValidation', validForDays: 14 });
    await page.goto(`${t.baseUrl}/portal/licenses`);
    const row = page.getByRole('row', { name: new RegExp(trial.id) });
    await expect.poll(() => row.locator('.badge[data-status]').innerText()).toBe('Not started');
    expect(await row.getByText('Trial not started').getAttribute('title')).toBe('The clock starts at the first successful validation and runs 14 days.');
    await page.waitForLoadState('networkidle');
    await pageScreenshot(page, 'laptop', 'licenses-sales');
    const facts = await layoutFacts(page);
    expect(facts.scrollWidth).toBeLessThanOrEqual(LAPTOP.width);
    expect(facts.cellsOutOfView).toEqual([]);
  }, STEP);

  it('shows the licenses per status on the dashboard, each linking to its filtered list', async () => {
    const stats = (await t.admin('GET', '/licenses/stats')).json as { byStatus: Record<string, number> };
    expect(stats.byStatus.grace).toBeGreaterThan(0);
    expect(stats.byStatus.notStarted).toBeGreaterThan(0);
    await page.goto(`${t.baseUrl}/portal/`);
    for (const [status, count] of Object.entries(stats.byStatus)) {
      await expect.poll(() => page.getByTestId(`by-status-${status}`).innerText()).toBe(String(count));
    }
    await page.getByRole('link', { name: /In grace/ }).click();
    await expect.poll(() => new URL(page.url()).searchParams.get('status')).toBe('grace');
    await expect.poll(() => page.getByRole('region', { name: 'Licenses' }).locator('tbody tr').count()).toBe(stats.byStatus.grace);
  }, STEP);

  it('raised no uncaught error in the browser', () => {
    expect(pageErrors).toEqual([]);
  });
});
