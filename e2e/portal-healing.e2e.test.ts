// Bindings that heal in the portal: the product form sets the slot timeout and the
// self-release limit (licenses inherit them), the license page shows both, how many
// self-releases are used and left, and when each binding was bound and last seen; the
// license form changes them. The license page at 390 px wide.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCustomer, readLicense, validate } from '../test/helpers/fixtures.js';
import { ADMIN, startTestApp, type TestApp } from '../test/helpers/test-app.js';
import { layoutFacts } from './support/layout.js';
import { PHONE, launchBrowser, openPage, pageErrors, screenshot, signIn } from './support/browser.js';

const STEP = 60_000;

describe('portal: bindings that heal', () => {
  let t: TestApp;
  let browser: Browser;
  let page: Page;
  let productId = '';
  let licenseKey = '';

  beforeAll(async () => {
    [t, browser] = await Promise.all([startTestApp('sqlite'), launchBrowser()]);
    page = await openPage(browser);
    await signIn(page, t.baseUrl, ADMIN.username, ADMIN.password);
  }, STEP);

  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  it('a product carries the slot timeout and the self-release limit, with help saying what empty means', async () => {
    await page.goto(`${t.baseUrl}/portal/products/new`);
    await page.getByLabel('Name', { exact: true }).fill('Healing Plugin');
    await page.getByLabel('Price').fill('9');
    await page.getByLabel('Max HWIDs per license').fill('2');
    const timeout = page.getByLabel('Free idle slots after (minutes)');
    expect(await page.locator('.field', { has: timeout }).innerText()).toContain('Empty = bindings are permanent');
    await timeout.fill('1440');
    await page.getByLabel('Self-service releases per 30 days').fill('2');
    await page.getByRole('button', { name: 'Create product' }).click();
    await page.getByRole('link', { name: 'Healing Plugin' }).waitFor();
    const [product] = (await t.admin('GET', '/products?q=Healing%20Plugin')).json;
    expect(product).toMatchObject({ slotTimeoutMinutes: 1440, selfReleaseLimit: 2, maxHwids: 2 });
    productId = product.id;
  }, STEP);

  it('the license page shows the inherited settings, self-releases used and left, and when each binding was seen', async () => {
    const customer = await createCustomer(t);
    const created = await t.admin('POST', '/licenses', { body: { productId, customerId: customer.id } });
    licenseKey = created.json.id;
    for (const hwid of ['panel-1', 'panel-2']) await validate(t, { licenseId: licenseKey, productId, hwid });
    const freed = await t.req('POST', '/licenses/release', { body: { licenseId: licenseKey, productId, hwid: 'panel-1' } });
    expect(freed.json.releasedHwids).toEqual(['panel-1']);

    await page.goto(`${t.baseUrl}/portal/licenses/${licenseKey}`);
    await page.getByTestId('license-key').waitFor();
    expect(await page.getByTestId('license-slot-timeout').innerText()).toBe('After 1 day idle');
    expect(await page.getByTestId('license-self-releases').innerText()).toBe('1 used, 1 left (2 per 30 days)');
    const seen = await page.getByTestId('bound-hwids').innerText();
    expect(seen).toContain('panel-2');
    expect(seen).not.toContain('panel-1');
    expect(seen).toMatch(/Bound (now|\d+ seconds? ago) · last seen (now|\d+ seconds? ago)/);
    await screenshot(page, 'license-healing');
  }, STEP);

  it('the license form turns self-service release off (empty = off) with a versioned PUT', async () => {
    const field = page.getByLabel('Self-service releases per 30 days');
    expect(await field.inputValue()).toBe('2');
    await field.fill('');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByText('License saved.').waitFor();
    await expect.poll(() => page.getByTestId('license-self-releases').innerText()).toBe('Off');
    const license = await readLicense(t, licenseKey);
    expect(license).toMatchObject({ selfReleaseLimit: null, slotTimeoutMinutes: 1440, selfReleasesLeft: null, version: 2 });
  }, STEP);

  it('fits a 390 px screen: bindings with their Release button, no sideways scrolling', async () => {
    const phone = await openPage(browser, PHONE);
    await signIn(phone, t.baseUrl, ADMIN.username, ADMIN.password);
    await phone.goto(`${t.baseUrl}/portal/licenses/${licenseKey}`);
    await phone.getByTestId('bound-hwids').waitFor();
    expect(await phone.getByRole('button', { name: 'Release HWID panel-2' }).isVisible()).toBe(true);
    const facts = await layoutFacts(phone);
    expect(facts.scrollWidth).toBeLessThanOrEqual(facts.viewportWidth);
    await screenshot(phone, 'license-healing-narrow');
    await phone.context().close();
  }, STEP);

  it('raised no uncaught error in the browser', () => {
    expect(pageErrors).toEqual([]);
  });
});
