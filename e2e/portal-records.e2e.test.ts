// The portal's main flows in a real browser against the real service (SQLite, HTTP):
// sign in; create a customer (after a field-level error), a product and a license;
// validate it through the public API and see the attempts; release the HWID; a version
// conflict; an order; a refused delete; the audit log; the dashboard (in two time
// zones); a paged list with its total; a narrow screen.
// The steps build on each other and run in order.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCustomer, createProduct, readLicense, validate } from '../test/helpers/fixtures.js';
import { ADMIN, startTestApp, type TestApp } from '../test/helpers/test-app.js';
import { PHONE, launchBrowser, navLink, openPage, pageErrors, screenshot, signIn } from './support/browser.js';
import { chartRows, dayIn, expectedDays } from './support/chart.js';

const STEP = 60_000;
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

describe('portal: customers, products, licenses, orders, audit', () => {
  let t: TestApp;
  let browser: Browser;
  let page: Page;
  let licenseKey = '';
  let productId = '';

  beforeAll(async () => {
    [t, browser] = await Promise.all([startTestApp('sqlite'), launchBrowser()]);
    page = await openPage(browser);
  }, STEP);

  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  it('refuses wrong credentials with a clear message, then signs in', async () => {
    await page.goto(`${t.baseUrl}/`);
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    await page.getByLabel('Username').fill(ADMIN.username);
    await page.getByLabel('Password').fill('wrong-password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect.poll(() => page.getByRole('alert').innerText()).toContain('Invalid username or password');
    await screenshot(page, 'sign-in-error');

    await signIn(page, t.baseUrl, ADMIN.username, ADMIN.password);
    expect(await page.getByText(`Signed in as ${ADMIN.username}`).isVisible()).toBe(true);
  }, STEP);

  it('creates a customer, showing the email error beside its field first', async () => {
    await navLink(page, 'Customers').click();
    await page.getByText('No customers yet.').waitFor();
    await page.getByRole('link', { name: 'New customer' }).click();
    await page.getByLabel('Name', { exact: true }).fill('Acme Ltd');
    await page.getByLabel('Email', { exact: true }).fill('not-an-email');
    await page.getByLabel('Twitter handle').fill('acme');
    await page.getByLabel('LinkedIn').fill('acme-ltd');
    await page.getByRole('button', { name: 'Create customer' }).click();

    const emailField = page.locator('.field', { has: page.getByLabel('Email', { exact: true }) });
    await emailField.getByText('Enter an email address like name@example.com.').waitFor();
    expect(await page.getByLabel('Email', { exact: true }).getAttribute('aria-invalid')).toBe('true');
    await screenshot(page, 'customer-form-error');

    await page.getByLabel('Email', { exact: true }).fill('billing@acme.example');
    await page.getByRole('button', { name: 'Create customer' }).click();
    await page.getByRole('heading', { name: 'Acme Ltd' }).waitFor();
    expect(await page.locator('.facts').innerText()).toMatch(/Twitter\s+acme/);

    const customers = (await t.admin('GET', '/customers')).json as { name: string; socials: Record<string, string> }[];
    expect(customers).toEqual([expect.objectContaining({ name: 'Acme Ltd', socials: { twitter: 'acme', linkedin: 'acme-ltd' } })]);
  }, STEP);

  it('creates a product with limits, a marketplace resource id and a Polymart product id', async () => {
    await navLink(page, 'Products').click();
    await page.getByRole('link', { name: 'New product' }).click();
    await page.getByLabel('Name', { exact: true }).fill('Acme Desktop');
    await page.getByLabel('Price').fill('19.99');
    await page.getByLabel('Marketplace resource id').fill('res-1');
    await page.getByLabel('Polymart product id').fill('4321');
    await page.getByLabel('Max IPs per license').fill('2');
    await page.getByLabel('Max HWIDs per license').fill('1');
    await page.getByRole('button', { name: 'Create product' }).click();
    await page.getByRole('link', { name: 'Acme Desktop' }).waitFor();
    await screenshot(page, 'products');

    const [product] = (await t.admin('GET', '/products')).json as { id: string; maxIps: number; maxHwids: number; price: number; marketplaceResourceId: string }[];
    expect(product).toMatchObject({ maxIps: 2, maxHwids: 1, price: 19.99, marketplaceResourceId: 'res-1', polymartProductId: '4321' });
    productId = product!.id;
  }, STEP);

  it('issues a license, showing the limits the product gives', async () => {
    await navLink(page, 'Licenses').click();
    await page.getByRole('link', { name: 'Issue license' }).click();
    await page.getByLabel('Customer', { exact: true }).selectOption({ label: 'Acme Ltd (billing@acme.example)' });
    await page.getByLabel('Product', { exact: true }).selectOption({ label: 'Acme Desktop' });
    const limits = await page.getByTestId('product-limits').innerText();
    expect(limits).toContain('Max IPs 2');
    expect(limits).toContain('Max HWIDs 1');
    await screenshot(page, 'license-create');
    await page.getByRole('button', { name: 'Issue license' }).click();

    licenseKey = (await page.getByTestId('license-key').innerText()).trim();
    expect(licenseKey).toMatch(/^[0-9A-HJKMNP-TV-Z]{5}(-[0-9A-HJKMNP-TV-Z]{5}){4}$/);
    expect(await page.getByTestId('license-max-ips').innerText()).toBe('2');
    expect(await page.getByTestId('license-max-hwids').innerText()).toBe('1');
    await page.getByText('No validation attempts yet.').waitFor();
  }, STEP);

  it('shows validation attempts made through the public API, newest first, with the reason', async () => {
    expect((await validate(t, { licenseId: licenseKey, productId, hwid: 'machine-A' })).json).toEqual({ valid: true });
    expect((await validate(t, { licenseId: licenseKey, productId, hwid: 'machine-B' })).json).toEqual({ valid: false });

    await page.getByRole('button', { name: 'Refresh' }).click();
    const rows = page.getByTestId('validation-attempt');
    await expect.poll(() => rows.count()).toBe(2);
    expect(await rows.nth(0).innerText()).toMatch(/Refused[\s\S]*HWID limit reached[\s\S]*127\.0\.0\.1[\s\S]*machine-B/);
    expect(await rows.nth(1).innerText()).toMatch(/Accepted[\s\S]*Valid[\s\S]*machine-A/);
    expect(await page.getByTestId('bound-hwids').innerText()).toContain('machine-A');
    expect(await page.getByTestId('bound-ips').innerText()).toContain('127.0.0.1');
    await screenshot(page, 'license');
  }, STEP);

  it('releases the HWID with a PUT carrying the version, keeping the history', async () => {
    await page.getByRole('button', { name: 'Release HWID machine-A' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Release', exact: true }).click();
    await page.getByText('HWID machine-A released.').waitFor();
    await page.getByText('No HWIDs bound yet.').waitFor();

    const license = await readLicense(t, licenseKey);
    expect(license.usedHwids).toEqual([]);
    expect(license.usedIps).toEqual(['127.0.0.1']);
    expect(license.version).toBe(2);
    expect(license.validationAttempts.map((a) => a.reason)).toEqual(['VALID', 'HWID_LIMIT_REACHED']);
  }, STEP);

  it('reloads and says so when someone else changed the license meanwhile', async () => {
    const current = await readLicense(t, licenseKey);
    const { id: _id, createdAtEpochMillis: _created, ...body } = current;
    expect((await t.admin('PUT', `/licenses/${licenseKey}`, { body: { ...body, maxIps: 5 } })).status).toBe(200);

    await page.getByLabel('Max HWIDs', { exact: true }).fill('3');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByText('Someone else changed this license').waitFor();
    await expect.poll(() => page.getByTestId('license-max-ips').innerText()).toBe('5');
    await screenshot(page, 'license-conflict');

    await page.getByLabel('Max HWIDs', { exact: true }).fill('3');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByText('License saved.').waitFor();
    expect(await readLicense(t, licenseKey)).toMatchObject({ maxIps: 5, maxHwids: 3, version: 4 });
  }, STEP);

  it('records an order with the product and license pickers', async () => {
    // The license picker asks for the chosen customer's licenses only, never for all of them.
    const licenseQueries: string[] = [];
    const track = (request: { url(): string }) => {
      const url = new URL(request.url());
      if (url.pathname === '/licenses') licenseQueries.push(url.search);
    };
    page.on('request', track);
    await navLink(page, 'Orders').click();
    await page.getByText('No orders yet.').waitFor();
    await page.getByRole('link', { name: 'New order' }).click();
    await page.getByLabel('Customer', { exact: true }).selectOption({ label: 'Acme Ltd (billing@acme.example)' });
    await page.getByLabel('Acme Desktop (19.99)').check();
    await page.getByRole('button', { name: /Use sum of prices/ }).click();
    expect(await page.getByLabel('Total amount').inputValue()).toBe('19.99');
    await page.getByLabel(new RegExp(licenseKey)).check();
    await page.getByRole('button', { name: 'Create order' }).click();
    await page.getByRole('heading', { name: /^Order of / }).waitFor();

    const orders = (await t.admin('GET', '/orders')).json as { productIds: string[]; licenseIds: string[]; totalAmount: number }[];
    expect(orders).toEqual([expect.objectContaining({ productIds: [productId], licenseIds: [licenseKey], totalAmount: 19.99 })]);
    page.off('request', track);
    expect(licenseQueries.length).toBeGreaterThan(0);
    for (const query of licenseQueries) expect(query).toMatch(/customerId=/);
  }, STEP);

  it("lists the customer's licenses and orders, and says why it cannot be deleted before anyone tries", async () => {
    await navLink(page, 'Customers').click();
    await page.getByRole('link', { name: 'Acme Ltd' }).click();
    await page.getByRole('region', { name: 'Licenses' }).getByText(licenseKey).waitFor();
    expect(await page.getByRole('region', { name: 'Orders' }).innerText()).toContain('19.99');
    await screenshot(page, 'customer');

    await page.getByText('Cannot delete: 1 license and 1 order still refer to it.').waitFor();
    expect(await page.getByRole('button', { name: 'Delete', exact: true }).isDisabled()).toBe(true);
    await screenshot(page, 'customer-delete-blocked');
    expect((await t.admin('GET', '/customers')).json).toHaveLength(1);
  }, STEP);

  it('shows the changes in the audit log, filterable by event name, with readable snapshots', async () => {
    await navLink(page, 'Audit log').click();
    const events = page.getByTestId('audit-row').locator('td:nth-child(2)');
    await expect.poll(() => events.allInnerTexts()).toEqual([
      'orders.create', 'licenses.update', 'licenses.update', 'licenses.update', 'licenses.create', 'products.create', 'customers.create',
      'staff.create', // the Master Admin created at start
    ]);
    await page.getByLabel('Event', { exact: true }).selectOption('licenses.update');
    await page.getByRole('button', { name: 'Filter' }).click();
    await expect.poll(() => events.allInnerTexts()).toEqual(['licenses.update', 'licenses.update', 'licenses.update']);

    await page.getByText('Show snapshot').first().click();
    const snapshot = await page.locator('pre.json').first().innerText();
    expect(snapshot).toContain('\n  "maxHwids": 3');
    expect(JSON.parse(snapshot)).toMatchObject({ id: licenseKey, version: 4 });
    await screenshot(page, 'audit-log');
  }, STEP);

  it('shows counts from the totals and stats, validations per local day in the browser\'s zone, and the latest activity', async () => {
    // More records than a one-row page or one list page shows, and an expired license.
    const customerId = ((await t.admin('GET', '/customers')).json as { id: string }[])[0]!.id;
    for (let i = 0; i < 20; i += 1) await createCustomer(t, { name: `Extra customer ${String(i).padStart(2, '0')}` });
    await createProduct(t);
    const expired = await t.admin('POST', '/licenses', { body: { productId, customerId, expiresAtEpochMillis: Date.now() - DAY } });
    expect(expired.status).toBe(201);

    // Attempts around midnight in a zone 14 hours ahead of UTC, two days back, and one
    // older than the chart's 14 days.
    const now = Date.now();
    const kiritimatiMidnight = Math.floor((now + 14 * HOUR) / DAY) * DAY - 14 * HOUR - 2 * DAY;
    const history: [number, boolean][] = [
      [kiritimatiMidnight - 30 * 60_000, false],
      [kiritimatiMidnight + 30 * 60_000, true],
      [kiritimatiMidnight + 31 * 60_000, true],
      [now - 20 * DAY, true],
    ];
    await t.app.db
      .insertInto('validation_attempts')
      .values(history.map(([timestamp, successful]) => ({
        license_id: licenseKey, hwid: 'machine-old', ip: '10.0.0.9', timestamp,
        successful: successful ? 1 : 0, reason: successful ? 'VALID' : 'IP_LIMIT_REACHED',
      })))
      .execute();
    const recorded = (await readLicense(t, licenseKey)).validationAttempts.map((a): [number, boolean] => [a.timestampEpochMillis, a.successful]);
    expect(recorded).toHaveLength(6);

    const expectDashboard = async (dashboard: Page, timeZone: string) => {
      await expect.poll(() => dashboard.getByTestId('stat-customers').innerText()).toBe('21');
      await expect.poll(() => dashboard.getByTestId('stat-products').innerText()).toBe('2');
      await expect.poll(() => dashboard.getByTestId('stat-active-licenses').innerText()).toBe('1');
      expect(await dashboard.getByTestId('stat-expired-licenses').innerText()).toBe('1');
      const rows = await chartRows(dashboard);
      expect(rows).toHaveLength(14);
      expect(rows.at(-1)![0]).toBe(dayIn(timeZone, Date.now()));
      expect(rows.filter(([, ok, failed]) => ok + failed > 0)).toEqual(expectedDays(recorded, timeZone, 14, Date.now()));
    };

    await navLink(page, 'Dashboard').click();
    await expectDashboard(page, Intl.DateTimeFormat().resolvedOptions().timeZone);
    await page.getByTestId('audit-row').first().waitFor();
    await screenshot(page, 'dashboard');

    const kiritimati = await openPage(browser, undefined, 'Pacific/Kiritimati');
    const requested: string[] = [];
    kiritimati.on('request', (request) => requested.push(new URL(request.url()).pathname + new URL(request.url()).search));
    await signIn(kiritimati, t.baseUrl, ADMIN.username, ADMIN.password);
    await expectDashboard(kiritimati, 'Pacific/Kiritimati');
    // The figures come from counts, not from downloading the records.
    // Each once or more (a slow machine may see the dashboard refresh its figures meanwhile).
    const api = [...new Set(requested.filter((url) => /^\/(customers|products|licenses|orders)\b/.test(url)))];
    // Totals only (one-row pages), the suspected-sharing count among them (leak defence).
    expect(api.sort()).toEqual([
      '/customers?limit=1',
      expect.stringMatching(/^\/licenses\/stats\?since=\d+$/),
      expect.stringMatching(/^\/licenses\?(?=.*\bsharing=suspected\b)(?=.*\blimit=1\b)/),
      '/products?limit=1',
    ]);
    const rows = await chartRows(kiritimati);
    expect(rows.find(([day]) => day === dayIn('Pacific/Kiritimati', kiritimatiMidnight))).toEqual([dayIn('Pacific/Kiritimati', kiritimatiMidnight), 2, 0]);
    expect(rows.find(([day]) => day === dayIn('Pacific/Kiritimati', kiritimatiMidnight - HOUR))).toEqual([dayIn('Pacific/Kiritimati', kiritimatiMidnight - HOUR), 0, 1]);
    await kiritimati.context().close();
  }, STEP);

  it('pages through a list with its total', async () => {
    // A fresh load: the portal cached this list (for 5 s) before the API created the extra customers.
    await page.goto(`${t.baseUrl}/portal/customers`);
    await expect.poll(() => page.getByTestId('page-range').innerText()).toBe('1–20 of 21');
    expect(await page.getByText('Page 1 of 2').isVisible()).toBe(true);
    // Newest first: the first customer is alone on page 2, and the address counts from 1.
    expect(await page.getByRole('link', { name: 'Extra customer 19' }).isVisible()).toBe(true);
    await page.getByRole('button', { name: 'Next →' }).click();
    await expect.poll(() => page.getByTestId('page-range').innerText()).toBe('21 of 21');
    expect(new URL(page.url()).searchParams.get('page')).toBe('2');
    expect(await page.getByRole('link', { name: 'Acme Ltd' }).isVisible()).toBe(true);
    expect(await page.getByRole('button', { name: 'Next →' }).isDisabled()).toBe(true);
    await screenshot(page, 'customers-paged');
  }, STEP);

  it('works on a narrow screen through the menu button', async () => {
    const phone = await openPage(browser, PHONE);
    await signIn(phone, t.baseUrl, ADMIN.username, ADMIN.password);
    expect(await navLink(phone, 'Licenses').isVisible()).toBe(false);
    await screenshot(phone, 'dashboard-narrow');
    await phone.getByRole('button', { name: 'Menu' }).click();
    await navLink(phone, 'Licenses').click();
    await phone.getByRole('link', { name: licenseKey }).click();
    await phone.getByTestId('license-key').waitFor();
    await screenshot(phone, 'license-narrow');
    await phone.context().close();
  }, STEP);

  it('raised no uncaught error in the browser', () => {
    expect(pageErrors).toEqual([]);
  });
});
