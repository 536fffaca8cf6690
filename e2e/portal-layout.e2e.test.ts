// Every page of the portal at 1280×800 and 390×844: nothing wider than the screen, no
// blank band under the header, no page taller than its content, no list cell (a status, an
// action) out of view without scrolling sideways; a screenshot of each in
// test-artifacts/screenshots/ (listed at the end of the CI log).
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCustomer, createOrder, createProduct, createRole, newLicense, validate } from '../test/helpers/fixtures.js';
import { ADMIN, startTestApp, type TestApp } from '../test/helpers/test-app.js';
import { LAPTOP, PHONE, launchBrowser, openPage, pageErrors, signIn } from './support/browser.js';
import { layoutFacts, pageScreenshot } from './support/layout.js';

const STEP = 120_000;
/** Page padding plus a back link above the heading; an empty menu row would be hundreds. */
const MAX_GAP_UNDER_HEADER = 60;

describe('portal layout at laptop and phone sizes', () => {
  let t: TestApp;
  let browser: Browser;
  const pages: [string, string, string][] = [];

  beforeAll(async () => {
    [t, browser] = await Promise.all([startTestApp('sqlite'), launchBrowser()]);
    // Records with long values: a long key, email, socials; several attempts in one minute.
    const customer = await createCustomer(t, {
      name: 'Northwind Traders International',
      email: 'accounts.payable.department@northwind-traders.example',
      socials: { twitter: 'northwind', linkedin: 'northwind-traders-international' },
    });
    const product = await createProduct(t, { name: 'Northwind Desktop Suite', maxIps: 2, maxHwids: 2 });
    const license = await newLicense(t, { customerId: customer.id, productId: product.id, maxHwids: 1 });
    // A dated expiry: its column is the widest one of the licenses list.
    await newLicense(t, { customerId: customer.id, productId: product.id, expiresAtEpochMillis: Date.now() + 86_400_000 * 400 });
    // Sales (issue #35): a subscription with a tier sold under its own ids; a not-started
    // trial at that tier, a running trial and a license in grace, whose status and expiry
    // columns must keep the list within a laptop's width.
    const subscription = await createProduct(t, {
      name: 'Northwind Server Subscription',
      isSubscription: true,
      recurringPeriodDays: 30,
      marketplaceResourceId: '104242',
      polymartProductId: '5151',
      tiers: [{ code: 'enterprise', name: 'Enterprise', features: { seats: 50 }, marketplaceResourceId: '104243', polymartProductId: '5152' }],
    });
    const trial = { customerId: customer.id, productId: subscription.id, trial: true, tier: 'enterprise' };
    await newLicense(t, { ...trial, expiryBasis: 'firstValidation', validForDays: 14 });
    await newLicense(t, { ...trial, expiresAtEpochMillis: Date.now() + 86_400_000 * 300 });
    await newLicense(t, { customerId: customer.id, productId: subscription.id, expiresAtEpochMillis: Date.now() - 86_400_000, graceDays: 7 });
    for (const hwid of ['workstation-01', 'workstation-02', 'workstation-01']) await validate(t, { licenseId: license.id, productId: product.id, hwid });
    const order = await createOrder(t, { customerId: customer.id, productIds: [product.id], licenseIds: [license.id], totalAmount: 49.5 });
    const role = await createRole(t, ['customers:read', 'licenses:read', 'staff:manage', 'products:read'], 'Support');
    pages.push(
      ['dashboard', '/portal/', 'Dashboard'],
      ['customers', '/portal/customers', 'Customers'],
      ['customer', `/portal/customers/${customer.id}`, customer.name],
      ['customer-new', '/portal/customers/new', 'New customer'],
      ['customer-edit', `/portal/customers/${customer.id}/edit`, `Edit ${customer.name}`],
      ['products', '/portal/products', 'Products'],
      ['product', `/portal/products/${product.id}`, product.name],
      ['product-tiers', `/portal/products/${subscription.id}`, subscription.name],
      ['product-new', '/portal/products/new', 'New product'],
      ['licenses', '/portal/licenses', 'Licenses'],
      ['license', `/portal/licenses/${license.id}`, 'License'],
      ['license-new', '/portal/licenses/new', 'Issue a license'],
      ['orders', '/portal/orders', 'Orders'],
      ['order', `/portal/orders/${order.id}`, 'Order of'],
      ['order-new', '/portal/orders/new', 'New order'],
      ['staff', '/portal/staff', 'Staff'],
      ['roles', '/portal/roles', 'Roles'],
      ['role', `/portal/roles/${role.id}`, 'Role: Support'],
      ['role-new', '/portal/roles/new', 'New role'],
      ['registration-keys', '/portal/registration-keys', 'Registration keys'],
      ['signing-keys', '/portal/signing-keys', 'Signing keys'],
      ['api-tokens', '/portal/api-tokens', 'API tokens'],
      ['audit', '/portal/audit', 'Audit log'],
      ['not-found', '/portal/no-such-page', 'Page not found'],
    );
  }, STEP);

  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  async function checkEveryPage(page: Page, size: string, viewport: { width: number }) {
    const problems: string[] = [];
    for (const [name, path, heading] of pages) {
      await page.goto(`${t.baseUrl}${path}`);
      await page.getByRole('heading', { level: 1, name: heading }).first().waitFor();
      await page.waitForLoadState('networkidle');
      const facts = await layoutFacts(page);
      if (facts.scrollWidth > viewport.width) problems.push(`${name}: ${facts.scrollWidth}px wide on a ${viewport.width}px screen`);
      if (facts.gapUnderHeader > MAX_GAP_UNDER_HEADER) problems.push(`${name}: ${facts.gapUnderHeader}px blank under the header`);
      if (facts.extraHeight > 2) problems.push(`${name}: ${facts.extraHeight}px taller than its content`);
      for (const cell of facts.cellsOutOfView) problems.push(`${name}: ${cell} out of view without scrolling sideways`);
      await pageScreenshot(page, size, name);
    }
    return problems;
  }

  it('fits every page into a laptop screen', async () => {
    const page = await openPage(browser, LAPTOP);
    await signIn(page, t.baseUrl, ADMIN.username, ADMIN.password);
    expect(await checkEveryPage(page, 'laptop', LAPTOP)).toEqual([]);
    await page.context().close();
  }, STEP);

  it('fits every page into a phone screen: no sideways scrolling, no blank band under the header', async () => {
    const page = await openPage(browser, PHONE);
    await page.goto(`${t.baseUrl}/portal/sign-in`);
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    await pageScreenshot(page, 'phone', 'sign-in');
    await page.goto(`${t.baseUrl}/portal/register`);
    await page.getByRole('heading', { name: 'Create a staff account' }).waitFor();
    expect((await layoutFacts(page)).scrollWidth).toBeLessThanOrEqual(PHONE.width);
    await pageScreenshot(page, 'phone', 'register');
    await signIn(page, t.baseUrl, ADMIN.username, ADMIN.password);
    expect(await checkEveryPage(page, 'phone', PHONE)).toEqual([]);
    await page.context().close();
  }, STEP);

  it('shows a license key on one line and every permission of the role form on a phone', async () => {
    const page = await openPage(browser, PHONE);
    await signIn(page, t.baseUrl, ADMIN.username, ADMIN.password);
    const [license] = (await t.admin('GET', '/licenses')).json as { id: string }[];
    await page.goto(`${t.baseUrl}/portal/licenses/${license!.id}`);
    const key = page.getByTestId('license-key');
    const box = await key.boundingBox();
    // One line of text plus padding is under 40 px; the key wrapped over five lines before.
    expect(box!.height).toBeLessThan(40);
    expect(box!.x + box!.width).toBeLessThanOrEqual(PHONE.width);
    await page.goto(`${t.baseUrl}/portal/roles/new`);
    const manage = page.getByLabel('staff:manage', { exact: true });
    await manage.waitFor();
    const checkbox = await manage.boundingBox();
    expect(checkbox!.x + checkbox!.width).toBeLessThanOrEqual(PHONE.width);
    await page.context().close();
  }, STEP);

  it('raised no uncaught error in the browser', () => {
    expect(pageErrors).toEqual([]);
  });
});
