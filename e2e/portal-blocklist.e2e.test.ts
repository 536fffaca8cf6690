// Leak defence in the portal: a blocklist rule created on the Blocklist page (a malformed
// network named beside its field first), "Block this HWID" from a license's validation
// history in one step, hits shown, a rule deleted; a license suspected of sharing flagged
// in the list, on the dashboard and on its page (counts, values), then cleared.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProduct, newLicense, readLicense } from '../test/helpers/fixtures.js';
import { ADMIN, startTestApp, type TestApp } from '../test/helpers/test-app.js';
import { LAPTOP, launchBrowser, navLink, openPage, pageErrors, screenshot, signIn } from './support/browser.js';

const STEP = 60_000;

describe('portal: blocklist and shared keys', () => {
  let t: TestApp;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    [t, browser] = await Promise.all([startTestApp('sqlite', { VALIDATION_RATE_LIMIT: '100000' }), launchBrowser()]);
    page = await openPage(browser, LAPTOP);
    await signIn(page, t.baseUrl, ADMIN.username, ADMIN.password);
  }, STEP);

  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  const validateAs = (licenseId: string, productId: string, hwid: string) =>
    t.req('POST', '/licenses/validate', { body: { licenseId, productId, hwid } });

  it('creates a rule (the API\'s error beside the field first), shows its hits, deletes it', async () => {
    await navLink(page, 'Blocklist').click();
    await page.getByRole('heading', { name: 'Blocklist' }).waitFor();
    const form = page.getByRole('form', { name: 'New blocklist rule' });
    await form.getByLabel('Type').selectOption('cidr');
    await form.getByLabel('Value').fill('10.0.0.0/33');
    await form.getByLabel('Note (optional)').fill('forum leak');
    await form.getByRole('button', { name: 'Add rule' }).click();
    const valueField = form.locator('.field', { has: page.getByLabel('Value') });
    await expect.poll(() => valueField.locator('.field-error').innerText()).toMatch(/CIDR/);
    expect((await t.admin('GET', '/blocklist')).json).toEqual([]);

    await form.getByLabel('Value').fill('127.0.0.0/8');
    await form.getByLabel('Mode').selectOption('flag');
    await form.getByRole('button', { name: 'Add rule' }).click();
    await page.getByText('Rule for 127.0.0.0/8 added: in force now.').waitFor();
    const row = page.getByTestId('blocklist-rule').filter({ hasText: '127.0.0.0/8' });
    await row.waitFor();
    expect(await row.innerText()).toContain('Flag only');

    // A flag rule counts the hit of every validation from this machine (127.0.0.1) and changes no answer.
    const license = await newLicense(t);
    expect((await validateAs(license.id, license.productId, 'box-1')).json).toEqual({ valid: true });
    await t.app.blocklist.flushHits();
    await page.reload();
    await expect.poll(() => row.getByTestId('rule-hits').innerText()).toBe('1');
    await screenshot(page, 'blocklist-page');

    await row.getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
    await row.waitFor({ state: 'detached' });
    expect((await t.admin('GET', '/blocklist')).json).toEqual([]);
  }, STEP);

  it('blocks a HWID from the validation history in one step, for this license', async () => {
    const license = await newLicense(t);
    expect((await validateAs(license.id, license.productId, 'leaky-box')).json).toEqual({ valid: true });
    await page.goto(`${t.baseUrl}/portal/licenses/${license.id}`);
    const attempt = page.getByTestId('validation-attempt').first();
    await attempt.waitFor();
    await page.getByLabel('Block buttons apply to').selectOption('license');
    await attempt.getByRole('button', { name: 'Block this HWID' }).click();
    await page.getByText('HWID leaky-box blocked for this license.').waitFor();
    expect((await validateAs(license.id, license.productId, 'leaky-box')).json).toEqual({ valid: false });
    expect((await readLicense(t, license.id)).validationAttempts.at(-1)).toMatchObject({ reason: 'BLOCKED' });
    const rules = (await t.admin('GET', `/blocklist?licenseId=${license.id}`)).json;
    expect(rules).toMatchObject([{ type: 'hwid', value: 'leaky-box', scope: 'license', mode: 'block' }]);
    await page.getByRole('button', { name: 'Refresh' }).click();
    await expect.poll(() => page.getByTestId('validation-attempt').first().innerText()).toContain('Blocked (blocklist)');
  }, STEP);

  it('flags a license suspected of sharing in the list, on the dashboard and on its page, and clears it', async () => {
    const product = await createProduct(t, { sharingAlert: { distinctHwids: 1, windowHours: 1 } });
    const license = await newLicense(t, { productId: product.id });
    for (const hwid of ['home-pc', 'stranger-1']) await validateAs(license.id, product.id, hwid);
    expect((await readLicense(t, license.id)).sharingSuspectedAtEpochMillis).toEqual(expect.any(Number));

    await navLink(page, 'Dashboard').click();
    await expect.poll(() => page.getByTestId('stat-suspected-sharing').innerText()).toBe('1');
    await navLink(page, 'Licenses').click();
    await page.getByLabel('Sharing').selectOption('suspected');
    const flagged = page.getByRole('row').filter({ hasText: license.id });
    await flagged.getByTestId('sharing-suspected').waitFor();
    expect(await page.getByTestId('sharing-suspected').count()).toBe(1);

    await flagged.getByRole('link', { name: license.id }).click();
    const panel = page.getByTestId('sharing-panel');
    await panel.getByText('Suspected of sharing').waitFor();
    expect(await panel.getByTestId('sharing-hwids').innerText()).toBe('2 of at most 1');
    expect(await panel.innerText()).toContain('stranger-1');
    await screenshot(page, 'license-sharing-suspected');
    await panel.getByRole('button', { name: 'Clear the sharing mark' }).click();
    await panel.getByText('Suspected of sharing').waitFor({ state: 'detached' });
    expect((await readLicense(t, license.id)).sharingSuspectedAtEpochMillis).toBeNull();
  }, STEP);

  it('raised no uncaught error in the browser', () => {
    expect(pageErrors).toEqual([]);
  });
});
