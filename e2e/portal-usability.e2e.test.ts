// Issue #13 in a real browser: forms that show every problem at once, ids with copy
// buttons, sortable newest-first tables with search and filters, times with seconds,
// product names for staff without products:read, the audit log's filters and paging,
// feedback after actions, and the dashboard chart's scale.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCustomer, createProduct, staffWith, newLicense, validate } from '../test/helpers/fixtures.js';
import { ADMIN, startTestApp, type TestApp } from '../test/helpers/test-app.js';
import { launchBrowser, navLink, openPage, pageErrors, signIn } from './support/browser.js';
import { pageScreenshot } from './support/layout.js';

const STEP = 90_000;
const WITH_SECONDS = /\d{1,2}:\d{2}:\d{2}/;

describe('portal usability (issue #13)', () => {
  let t: TestApp;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    [t, browser] = await Promise.all([startTestApp('sqlite'), launchBrowser()]);
    page = await openPage(browser);
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: t.baseUrl });
    await signIn(page, t.baseUrl, ADMIN.username, ADMIN.password);
  }, STEP);

  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  const fieldError = (label: string) =>
    page.locator('.field', { has: page.getByLabel(label, { exact: true }) }).locator('.field-error');

  it('shows every field error of a form at once, in plain words, clearing each as it is fixed, without calling the API', async () => {
    const posted: string[] = [];
    const track = (request: { method(): string; url(): string }) => {
      if (request.method() === 'POST') posted.push(new URL(request.url()).pathname);
    };
    page.on('request', track);
    await page.goto(`${t.baseUrl}/portal/products/new`);
    await page.getByRole('button', { name: 'Create product' }).click();
    expect(await fieldError('Name').innerText()).toBe('Required.');
    expect(await fieldError('Price').innerText()).toBe('Required.');
    await page.getByLabel('Name', { exact: true }).fill('Widget Pro');
    await expect.poll(() => fieldError('Name').count()).toBe(0);
    expect(await fieldError('Price').innerText()).toBe('Required.');
    await page.getByLabel('Price').fill('12,50');
    await page.getByLabel('Max HWIDs per license').fill('-1');
    await page.getByLabel('Max IPs per license').fill('1.5');
    await page.getByRole('button', { name: 'Create product' }).click();
    expect(await fieldError('Max HWIDs per license').innerText()).toBe('Cannot be negative.');
    expect(await fieldError('Max IPs per license').innerText()).toBe('Enter a whole number (no decimals).');
    await pageScreenshot(page, 'laptop', 'product-form-errors');
    expect(posted).toEqual([]);

    await page.goto(`${t.baseUrl}/portal/licenses/new`);
    await page.getByRole('button', { name: 'Issue license' }).click();
    expect(await fieldError('Customer').innerText()).toBe('Choose a customer.');
    expect(await fieldError('Product').innerText()).toBe('Choose a product.');

    await page.goto(`${t.baseUrl}/portal/customers/new`);
    await page.getByLabel('Email', { exact: true }).fill('bob');
    await page.getByRole('button', { name: 'Create customer' }).click();
    expect(await fieldError('Name').innerText()).toBe('Required.');
    expect(await fieldError('Email').innerText()).toBe('Enter an email address like name@example.com.');
    expect(posted).toEqual([]);
    page.off('request', track);
  }, STEP);

  it('confirms a create with a message and names the tab after the page', async () => {
    await page.goto(`${t.baseUrl}/portal/products/new`);
    expect(await page.title()).toBe('New product · Licensing admin');
    await page.getByLabel('Name', { exact: true }).fill('Widget Pro');
    await page.getByLabel('Price').fill('12.50');
    await page.getByRole('button', { name: 'Create product' }).click();
    await page.locator('.flash', { hasText: 'Product created.' }).waitFor();
    await page.getByRole('heading', { name: 'Products' }).waitFor();
    expect(await page.title()).toBe('Products · Licensing admin');
    expect(await navLink(page, 'Customers').isVisible()).toBe(true);
    expect(await page.getByRole('link', { name: 'API reference ↗' }).getAttribute('href')).toBe('/docs');
  }, STEP);

  it('shows the product, customer and order ids with buttons that copy them', async () => {
    const product = await createProduct(t, { name: 'Copyable' });
    await page.goto(`${t.baseUrl}/portal/products/${product.id}`);
    expect(await page.getByTestId('record-id').locator('code').innerText()).toBe(product.id);
    await page.getByTestId('record-id').getByRole('button', { name: 'Copy product id' }).click();
    await page.getByRole('button', { name: 'Copied' }).waitFor();
    expect(await page.evaluate('navigator.clipboard.readText()')).toBe(product.id);

    const customer = await createCustomer(t);
    await page.goto(`${t.baseUrl}/portal/customers/${customer.id}`);
    expect(await page.getByTestId('record-id').locator('code').innerText()).toBe(customer.id);
    expect(await page.getByRole('button', { name: 'Copy customer id' }).isVisible()).toBe(true);

    const license = await newLicense(t, { customerId: customer.id, productId: product.id });
    const order = await t.admin('POST', '/orders', { body: { customerId: customer.id, productIds: [product.id], licenseIds: [license.id], totalAmount: 5 } });
    await page.goto(`${t.baseUrl}/portal/orders/${order.json.id}`);
    expect(await page.getByTestId('record-id').locator('code').innerText()).toBe(order.json.id);
    // The saved order reads as a summary; its license is a whole key and a link.
    const summary = page.getByRole('region', { name: 'Order summary' });
    await expect.poll(() => summary.innerText()).toContain(customer.name);
    await summary.getByRole('link', { name: license.id }).click();
    await page.getByTestId('license-key').waitFor();
    expect(await page.getByTestId('license-key').innerText()).toBe(license.id);
  }, STEP);

  it('lists newest first, sorts by a column on the server, and searches emails by part', async () => {
    const tag = `srt${Date.now() % 100000}`;
    for (const name of ['Zed', 'Amy', 'Max']) await createCustomer(t, { name: `${tag} ${name}`, email: `${name.toLowerCase()}.${tag}@shop.example` });
    const sorts: string[] = [];
    const track = (request: { url(): string }) => {
      const url = new URL(request.url());
      if (url.pathname === '/customers') sorts.push(`${url.searchParams.get('sort')} ${url.searchParams.get('order')}`);
    };
    page.on('request', track);
    await page.goto(`${t.baseUrl}/portal/customers?q=${tag}`);
    const names = () => page.getByRole('region', { name: 'Customers' }).locator('tbody tr td:first-child').allInnerTexts();
    await expect.poll(names).toEqual([`${tag} Max`, `${tag} Amy`, `${tag} Zed`]);
    await page.getByRole('button', { name: 'Name' }).click();
    await expect.poll(names).toEqual([`${tag} Amy`, `${tag} Max`, `${tag} Zed`]);
    expect(new URL(page.url()).searchParams.get('sort')).toBe('name');
    expect(await page.getByRole('columnheader', { name: 'Name' }).getAttribute('aria-sort')).toBe('ascending');
    await page.getByRole('button', { name: 'Name' }).click();
    await expect.poll(names).toEqual([`${tag} Zed`, `${tag} Max`, `${tag} Amy`]);
    page.off('request', track);
    expect(sorts).toEqual(expect.arrayContaining(['createdAt desc', 'name asc', 'name desc']));
    await pageScreenshot(page, 'laptop', 'customers-sorted');

    await page.goto(`${t.baseUrl}/portal/customers`);
    await page.getByLabel('Email contains').fill(`AMY.${tag}`);
    await page.getByRole('button', { name: 'Search' }).click();
    await expect.poll(names).toEqual([`${tag} Amy`]);
  }, STEP);

  it('finds licenses by part of the key and by status', async () => {
    const customer = await createCustomer(t, { name: 'Key Finder' });
    const product = await createProduct(t, { name: 'Findable' });
    const active = await newLicense(t, { customerId: customer.id, productId: product.id });
    const expired = await newLicense(t, { customerId: customer.id, productId: product.id, expiresAtEpochMillis: Date.now() - 60_000 });
    await page.goto(`${t.baseUrl}/portal/licenses?customerId=${customer.id}`);
    const keys = () => page.getByRole('region', { name: 'Licenses' }).locator('tbody tr td:first-child').allInnerTexts();
    await expect.poll(keys).toEqual([expired.id, active.id]);
    await page.getByLabel('Status').selectOption('expired');
    await expect.poll(keys).toEqual([expired.id]);
    await page.getByLabel('Status').selectOption('');
    await page.getByLabel('Key contains').fill(active.id.slice(6, 17).toLowerCase());
    await page.getByRole('button', { name: 'Find' }).click();
    await expect.poll(keys).toEqual([active.id]);
  }, STEP);

  it('shows seconds in the validation history and audit log, and when each binding was first and last seen', async () => {
    const license = await newLicense(t, { maxHwids: 1 });
    for (const hwid of ['box-1', 'box-2', 'box-1']) await validate(t, { licenseId: license.id, productId: license.productId, hwid });
    await page.goto(`${t.baseUrl}/portal/licenses/${license.id}`);
    const attempts = page.getByTestId('validation-attempt');
    await expect.poll(() => attempts.count()).toBe(3);
    for (const text of await attempts.allInnerTexts()) expect(text).toMatch(WITH_SECONDS);
    // When each binding was bound and last seen: relative on screen, the exact time (with seconds) on hover.
    const seen = page.getByTestId('bound-hwids').getByTestId('binding-seen');
    expect(await seen.innerText()).toMatch(/^Bound .+ · last seen .+$/);
    const exact = await seen.locator('time').evaluateAll((times) => times.map((time) => time.getAttribute('title')));
    expect(exact).toHaveLength(2);
    for (const title of exact) expect(title).toMatch(WITH_SECONDS);

    // Releasing asks first; Cancel keeps the binding.
    await page.getByRole('button', { name: 'Release HWID box-1' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Cancel' }).click();
    expect(await page.getByTestId('bound-hwids').innerText()).toContain('box-1');

    await page.goto(`${t.baseUrl}/portal/audit`);
    await page.getByTestId('audit-row').first().waitFor();
    expect(await page.getByTestId('audit-row').first().innerText()).toMatch(WITH_SECONDS);
  }, STEP);

  it('shows product names to staff who read licenses but not products, and explains why they cannot issue', async () => {
    const product = await createProduct(t, { name: 'Named For Support' });
    const license = await newLicense(t, { productId: product.id });
    const support = await staffWith(t, ['licenses:read', 'licenses:write', 'customers:read']);
    const supportPage = await openPage(browser);
    await signIn(supportPage, t.baseUrl, support.username, support.password);
    await supportPage.goto(`${t.baseUrl}/portal/licenses`);
    const row = supportPage.getByRole('row', { name: new RegExp(license.id) });
    await expect.poll(() => row.innerText()).toContain('Named For Support');
    expect(await supportPage.getByRole('link', { name: 'Issue license' }).isVisible()).toBe(true);
    await supportPage.context().close();

    const narrow = await staffWith(t, ['licenses:read', 'licenses:write']);
    const narrowPage = await openPage(browser);
    await signIn(narrowPage, t.baseUrl, narrow.username, narrow.password);
    await narrowPage.goto(`${t.baseUrl}/portal/licenses`);
    await narrowPage.getByText('Issuing a license needs permission to read customers').waitFor();
    expect(await narrowPage.getByRole('link', { name: 'Issue license' }).count()).toBe(0);
    await narrowPage.context().close();
  }, STEP);

  it('filters the audit log by kind of event and actor, pages it, and links each entry to its record', async () => {
    const actor = await staffWith(t, ['roles:write']);
    for (let i = 0; i < 55; i += 1) await t.req('POST', '/roles', { token: actor.token, body: { name: `bulk-${i}`, permissions: [] } });
    const customer = await createCustomer(t, { name: 'Audited Customer' });

    await page.goto(`${t.baseUrl}/portal/audit`);
    await page.getByLabel('Event', { exact: true }).selectOption('customers.*');
    await page.getByRole('button', { name: 'Filter' }).click();
    const events = page.getByTestId('audit-row').locator('td:nth-child(2)');
    await expect.poll(async () => (await events.allInnerTexts()).every((name) => name.startsWith('customers.'))).toBe(true);
    await page.getByRole('link', { name: 'Customer Audited Customer' }).click();
    await page.getByRole('heading', { name: 'Audited Customer' }).waitFor();
    expect(customer.id).toBe(new URL(page.url()).pathname.split('/').pop());

    await page.goto(`${t.baseUrl}/portal/audit`);
    await page.getByLabel('By (username)').fill(actor.username);
    await page.getByRole('button', { name: 'Filter' }).click();
    await expect.poll(() => page.getByTestId('page-range').innerText()).toBe(`1–50 of 56`);
    const actors = page.getByTestId('audit-row').locator('td:nth-child(4)');
    expect(new Set(await actors.allInnerTexts())).toEqual(new Set([actor.username]));
    await page.getByRole('button', { name: 'Next →' }).click();
    await expect.poll(() => page.getByTestId('page-range').innerText()).toBe('51–56 of 56');
    expect(await events.allInnerTexts()).toContain('staff.create');
    await pageScreenshot(page, 'laptop', 'audit-filtered');
  }, STEP);

  it('disables a Delete the server would refuse, saying why', async () => {
    const license = await newLicense(t);
    await page.goto(`${t.baseUrl}/portal/products/${license.productId}`);
    await page.getByText('Cannot delete: 1 license still refers to it.').waitFor();
    expect(await page.getByRole('button', { name: 'Delete', exact: true }).isDisabled()).toBe(true);
  }, STEP);

  it('offers Retry when the server cannot be reached', async () => {
    await page.route('**/products?**', (route) => route.abort('connectionrefused'));
    await page.goto(`${t.baseUrl}/portal/products`);
    await page.getByText('Cannot reach the server').waitFor({ timeout: 20_000 });
    await page.unroute('**/products?**');
    await page.getByRole('button', { name: 'Retry' }).click();
    await page.getByRole('link', { name: 'Widget Pro' }).waitFor();
  }, STEP);

  it('keeps the session in a new tab', async () => {
    const second = await page.context().newPage();
    await second.goto(`${t.baseUrl}/portal/customers`);
    await second.getByRole('heading', { name: 'Customers' }).waitFor();
    expect(await second.getByRole('heading', { name: 'Sign in' }).count()).toBe(0);
    await second.close();
  }, STEP);

  it('draws the dashboard chart with a scale and each day\'s total', async () => {
    await page.goto(`${t.baseUrl}/portal/`);
    const scale = page.getByTestId('chart-scale');
    await scale.waitFor();
    expect((await scale.innerText()).split(/\s+/)).toEqual(['4', '2', '0']);
    const totals = (await page.getByTestId('bar-total').allInnerTexts()).filter(Boolean);
    expect(totals.at(-1)).toBe('3');
  }, STEP);

  it('raised no uncaught error in the browser', () => {
    expect(pageErrors).toEqual([]);
  });
});
