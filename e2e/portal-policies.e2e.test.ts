// Issue #30 in the portal: every license-policy setting is set through the forms and read
// back from the API (expiry basis with its days, grace days, features, reveal reasons, on
// products and licenses); the browser's own checks and a server field error show beside
// their field; saves are PATCHes; a trial reads "not started" then "ends <date>"; REVOKED
// reads "Revoked: <reason>" and GRACE valid-in-grace in the validation history.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCustomer, readLicense, validate } from '../test/helpers/fixtures.js';
import { ADMIN, startTestApp, type TestApp } from '../test/helpers/test-app.js';
import { launchBrowser, openPage, pageErrors, screenshot, signIn } from './support/browser.js';

const STEP = 90_000;

interface ProductView {
  id: string;
  name: string;
  expiryBasis: string;
  validForDays: number | null;
  graceDays: number | null;
  features: Record<string, unknown>;
  revealReasons: boolean;
}

describe('portal: license policies through the forms', () => {
  let t: TestApp;
  let browser: Browser;
  let page: Page;
  /** Method and path of every API write the page sends. */
  const writes: string[] = [];
  let product: ProductView;
  let licenseId: string;

  beforeAll(async () => {
    [t, browser] = await Promise.all([startTestApp('sqlite', { VALIDATION_RATE_LIMIT: '100000' }), launchBrowser()]);
    page = await openPage(browser);
    page.on('request', (request) => {
      if (request.method() !== 'GET') writes.push(`${request.method()} ${new URL(request.url()).pathname}`);
    });
    await signIn(page, t.baseUrl, ADMIN.username, ADMIN.password);
  }, STEP);

  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  const fieldError = (label: string) =>
    page.locator('.field', { has: page.getByLabel(label, { exact: true }) }).locator('.field-error');

  it('creates a trial product with grace, reasons and features; the browser and the server name the field at fault', async () => {
    await page.goto(`${t.baseUrl}/portal/products/new`);
    await page.getByLabel('Name', { exact: true }).fill('Trial Plugin');
    await page.getByLabel('Price').fill('9.99');
    await page.getByLabel('Expiry basis').selectOption('firstValidation');
    await page.getByRole('button', { name: 'Create product' }).click();
    // The browser's own check: a clock needs its length.
    expect(await fieldError('Valid for (days)').innerText()).toBe('Required with this expiry basis.');
    // Past the browser's checks, the API's limit (36500) shows beside the field.
    await page.getByLabel('Valid for (days)').fill('40000');
    await page.getByRole('button', { name: 'Create product' }).click();
    await expect.poll(() => fieldError('Valid for (days)').innerText()).toBe('Must be at most 36500.');
    await screenshot(page, 'policy-server-field-error');

    await page.getByLabel('Valid for (days)').fill('14');
    await page.getByLabel('Grace days').fill('3');
    await page.getByLabel('Tell the client why it was refused').check();
    const editor = page.getByTestId('features-editor');
    await editor.getByRole('button', { name: 'Add feature' }).click();
    await page.getByLabel('Feature 1 key').fill('Pro!');
    await editor.getByRole('button', { name: 'Add feature' }).click();
    await page.getByLabel('Feature 2 key').fill('seats');
    await page.getByLabel('Feature 2 type').selectOption('integer');
    await page.getByLabel('Feature 2 value').fill('5');
    await page.getByRole('button', { name: 'Create product' }).click();
    await expect.poll(() => editor.locator('.field-error').innerText()).toMatch(/Key "Pro!": use lower-case letters/);
    await page.getByLabel('Feature 1 key').fill('pro');
    await page.getByRole('button', { name: 'Create product' }).click();
    await page.getByRole('heading', { level: 1, name: 'Products' }).waitFor();

    const products = (await t.admin('GET', '/products')).json as ProductView[];
    product = products.find((p) => p.name === 'Trial Plugin')!;
    expect(product).toMatchObject({ expiryBasis: 'firstValidation', validForDays: 14, graceDays: 3, revealReasons: true, features: { pro: true, seats: 5 } });
  }, STEP);

  it('saves a product with PATCH', async () => {
    await page.goto(`${t.baseUrl}/portal/products/${product.id}`);
    await page.getByLabel('Grace days').fill('4');
    writes.length = 0;
    await page.getByRole('button', { name: 'Save product' }).click();
    await page.getByText('Product saved.').waitFor();
    expect(writes).toEqual([`PATCH /products/${product.id}`]);
    expect(((await t.admin('GET', `/products/${product.id}`)).json as ProductView).graceDays).toBe(4);
  }, STEP);

  it('issues a trial license that reads "not started" until its first validation, then "ends <date>"', async () => {
    const customer = await createCustomer(t, { name: 'Trial Buyer' });
    await page.goto(`${t.baseUrl}/portal/licenses/new`);
    await page.getByLabel('Customer', { exact: true }).selectOption({ label: `Trial Buyer (${customer.email})` });
    await page.getByLabel('Product', { exact: true }).selectOption({ label: 'Trial Plugin' });
    await page.getByTestId('product-features').getByText('pro: true').waitFor();
    writes.length = 0;
    await page.getByRole('button', { name: 'Issue license' }).click();
    await page.getByRole('heading', { level: 1, name: 'License' }).waitFor();
    licenseId = (await page.getByTestId('license-key').innerText()).trim();
    const issued = await readLicense(t, licenseId);
    expect(issued).toMatchObject({ expiryBasis: 'firstValidation', validForDays: 14, graceDays: 4, expiresAtEpochMillis: null, expiryStartedAtEpochMillis: null });
    expect(await page.getByTestId('license-expiry').innerText()).toBe('Trial not started (14 days from first use)');
    expect(await page.getByTestId('license-features').innerText()).toMatch(/pro: true[\s\S]*seats: 5/);
    await page.goto(`${t.baseUrl}/portal/licenses`);
    await page.getByRole('row', { name: new RegExp(licenseId) }).getByText('Trial not started').waitFor();

    expect((await validate(t, { licenseId, productId: product.id, hwid: 'buyer-pc' })).json).toEqual({ valid: true, reason: 'VALID' });
    const started = await readLicense(t, licenseId);
    expect(started.expiresAtEpochMillis).toEqual(expect.any(Number));
    await page.goto(`${t.baseUrl}/portal/licenses/${licenseId}`);
    await expect.poll(() => page.getByTestId('license-expiry').innerText()).toMatch(/^Trial ends \w{3} \d+, \d{4}/);
    await page.goto(`${t.baseUrl}/portal/licenses`);
    await page.getByRole('row', { name: new RegExp(licenseId) }).getByText(/Trial ends/).waitFor();
  }, STEP);

  it('sets every license setting through its form with PATCH: basis and days, grace, reasons, feature overrides', async () => {
    await page.goto(`${t.baseUrl}/portal/licenses/${licenseId}`);
    await page.getByLabel('Expiry basis').selectOption('creation');
    await page.getByLabel('Valid for (days)').fill('30');
    await page.getByLabel('Grace days').fill('7');
    await page.getByLabel('Tell the client why it was refused').selectOption('false');
    const editor = page.getByTestId('features-editor');
    await editor.getByRole('button', { name: 'Add feature' }).click();
    await page.getByLabel('Feature 1 key').fill('seats');
    await page.getByLabel('Feature 1 type').selectOption('integer');
    await page.getByLabel('Feature 1 value').fill('ten');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await expect.poll(() => editor.locator('.field-error').innerText()).toBe('Key "seats": enter a whole number.');
    await page.getByLabel('Feature 1 value').fill('10');
    await editor.getByRole('button', { name: 'Add feature' }).click();
    await page.getByLabel('Feature 2 key').fill('pro');
    await page.getByLabel('Feature 2 type').selectOption('remove');
    await editor.getByRole('button', { name: 'Add feature' }).click();
    await page.getByLabel('Feature 3 key').fill('edition');
    await page.getByLabel('Feature 3 type').selectOption('string');
    await page.getByLabel('Feature 3 value').fill('gold');
    writes.length = 0;
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByText('License saved.').waitFor();
    expect(writes).toEqual([`PATCH /licenses/${licenseId}`]);
    const saved = await readLicense(t, licenseId);
    expect(saved).toMatchObject({
      expiryBasis: 'creation',
      validForDays: 30,
      graceDays: 7,
      revealReasons: false,
      features: { seats: 10, pro: null, edition: 'gold' },
      effectiveFeatures: { seats: 10, edition: 'gold' },
    });
    expect(saved.validationAttempts).toHaveLength(1); // PATCH kept the history
    expect(saved.usedHwids).toEqual(['buyer-pc']);
    await expect.poll(() => page.getByTestId('license-features').innerText()).toMatch(/seats: 10[\s\S]*edition: "gold"/);
    expect(await page.getByTestId('license-features').innerText()).not.toMatch(/pro/);
    expect(await page.getByTestId('license-reveal-reasons').innerText()).toBe('No');
    expect(await page.getByTestId('license-grace').innerText()).toMatch(/^7 days after expiry/);

    // Back to the product's setting (null), and a server field error beside its field.
    await page.getByLabel('Tell the client why it was refused').selectOption('');
    await page.getByLabel('Grace days').fill('400');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await expect.poll(() => fieldError('Grace days').innerText()).toBe('Must be at most 365.');
    await page.getByLabel('Grace days').fill('7');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByText('License saved.').waitFor();
    expect((await readLicense(t, licenseId)).revealReasons).toBeNull();
    await screenshot(page, 'license-policy');
  }, STEP);

  it('shows GRACE as valid in grace and REVOKED as "Revoked: <reason>" in the validation history', async () => {
    // Expired a minute ago with 7 grace days: the bound machine still validates.
    const patch = await t.admin('PATCH', `/licenses/${licenseId}`, { body: { expiresAtEpochMillis: Date.now() - 60_000 } });
    expect(patch.status).toBe(200);
    expect((await validate(t, { licenseId, productId: product.id, hwid: 'buyer-pc' })).json).toMatchObject({ valid: true, reason: 'GRACE' });
    expect((await t.admin('POST', `/licenses/${licenseId}/revoke`, { body: { reason: 'refund' } })).status).toBe(200);
    expect((await validate(t, { licenseId, productId: product.id, hwid: 'buyer-pc' })).json).toMatchObject({ valid: false, reason: 'REVOKED' });
    await page.goto(`${t.baseUrl}/portal/licenses/${licenseId}`);
    const rows = page.getByTestId('validation-attempt');
    await expect.poll(() => rows.count()).toBe(3);
    expect(await rows.nth(0).innerText()).toMatch(/Refused[\s\S]*Revoked: refund/);
    expect(await rows.nth(1).innerText()).toMatch(/Accepted \(grace\)[\s\S]*Valid in grace/);
  }, STEP);

  it('saves a customer with PATCH, clearing the note', async () => {
    const customer = await createCustomer(t, { name: 'Patch Me', note: 'old note' });
    await page.goto(`${t.baseUrl}/portal/customers/${customer.id}/edit`);
    await page.getByLabel('Name', { exact: true }).fill('Patched Customer');
    await page.getByLabel('Note').fill('');
    writes.length = 0;
    await page.getByRole('button', { name: 'Save customer' }).click();
    await page.getByText('Customer saved.').waitFor();
    expect(writes).toEqual([`PATCH /customers/${customer.id}`]);
    expect((await t.admin('GET', `/customers/${customer.id}`)).json).toMatchObject({ name: 'Patched Customer', note: null });
  }, STEP);

  it('raised no uncaught error in the browser', () => {
    expect(pageErrors).toEqual([]);
  });
});
