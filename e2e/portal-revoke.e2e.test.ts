// Revoke and reinstate on the license page: the reason is asked for, the status says
// Revoked, validation answers false; Reinstate brings the former expiry back. At 390 px too.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newLicense, readLicense, validate } from '../test/helpers/fixtures.js';
import { ADMIN, startTestApp, type TestApp } from '../test/helpers/test-app.js';
import { layoutFacts } from './support/layout.js';
import { PHONE, launchBrowser, openPage, pageErrors, screenshot, signIn } from './support/browser.js';

const STEP = 60_000;

describe('portal: revoke and reinstate', () => {
  let t: TestApp;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    [t, browser] = await Promise.all([startTestApp('sqlite'), launchBrowser()]);
    page = await openPage(browser, PHONE);
    await signIn(page, t.baseUrl, ADMIN.username, ADMIN.password);
  }, STEP);

  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  it('revokes with a reason after asking, then reinstates, on a phone-sized screen', async () => {
    const license = await newLicense(t, { expiresAtEpochMillis: null });
    const args = { licenseId: license.id, productId: license.productId, hwid: 'box' };
    await page.goto(`${t.baseUrl}/portal/licenses/${license.id}`);
    await page.getByTestId('license-key').waitFor();

    await page.getByRole('button', { name: 'Revoke' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Reason (optional)').fill('chargeback');
    await dialog.getByRole('button', { name: 'Revoke' }).click();
    await page.getByText('License revoked.').waitFor();
    await expect.poll(() => page.getByTestId('license-revoked').innerText()).toContain('(chargeback)');
    expect(await page.locator('.badge', { hasText: 'Revoked' }).first().isVisible()).toBe(true);
    expect((await validate(t, args)).json).toEqual({ valid: false });
    expect((await layoutFacts(page)).scrollWidth).toBeLessThanOrEqual(PHONE.width);
    await screenshot(page, 'license-revoked-narrow');

    await page.getByRole('button', { name: 'Reinstate' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Reinstate' }).click();
    await page.getByText('License reinstated.').waitFor();
    await page.getByTestId('license-revoked').waitFor({ state: 'detached' });
    expect(await readLicense(t, license.id)).toMatchObject({ expiresAtEpochMillis: null, revokedAtEpochMillis: null, version: license.version + 2 });
    expect((await validate(t, args)).json).toEqual({ valid: true });
  }, STEP);

  it('raised no uncaught error in the browser', () => {
    expect(pageErrors).toEqual([]);
  });
});
