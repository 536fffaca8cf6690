// Issue #28: an empty dashboard says what to do first. A fresh installation shows the
// getting-started list (product, license, integrate, webhook); each step is ticked as it is
// done, and the list leaves once there is a product, a license and a validation. An account
// that can take none of the steps never sees it.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCustomer, createProduct, newLicense, staffWith, validate } from '../test/helpers/fixtures.js';
import { ADMIN, startTestApp, type TestApp } from '../test/helpers/test-app.js';
import { launchBrowser, openPage, pageErrors, screenshot, signIn } from './support/browser.js';

const STEP = 60_000;

describe('portal: getting started on an empty dashboard', () => {
  let t: TestApp;
  let browser: Browser;
  let admin: Page;

  beforeAll(async () => {
    // A private address for the endpoint below (no DNS lookup of a public name in a test).
    [t, browser] = await Promise.all([startTestApp('sqlite', { WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true' }), launchBrowser()]);
    admin = await openPage(browser);
    await signIn(admin, t.baseUrl, ADMIN.username, ADMIN.password);
  }, STEP);

  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  const list = () => admin.getByRole('region', { name: 'Getting started' });
  /** Each step's link text, with "(done)" after a finished one. */
  const stepNames = async () =>
    Promise.all(
      (await list().getByTestId('getting-started-step').all()).map(async (step) => {
        const name = await step.getByRole('link').innerText();
        const done = (await step.getAttribute('class'))?.includes('step-done') ?? false;
        return `${name.trim()}${done ? ' ✓' : ''}`;
      }),
    );

  it('lists the first steps on a fresh installation, each linking to where it is done', async () => {
    await list().waitFor();
    expect(await stepNames()).toEqual(['Create a product', 'Issue a license', 'Integrate', 'Add a webhook']);
    await screenshot(admin, 'dashboard-getting-started');
    await list().getByRole('link', { name: 'Create a product' }).click();
    await admin.getByRole('heading', { level: 1, name: 'New product' }).waitFor();
    await admin.goBack();
    await list().getByRole('link', { name: 'Add a webhook' }).click();
    await admin.getByRole('heading', { level: 1, name: /endpoint/i }).waitFor();
  }, STEP);

  it('ticks each step as it is done and leaves once a license has been validated', async () => {
    const product = await createProduct(t, { name: 'Starter Plugin' });
    await admin.goto(`${t.baseUrl}/portal/`);
    await expect.poll(stepNames).toEqual(['Create a product ✓', 'Issue a license', 'Integrate', 'Add a webhook']);
    // "Integrate" leads to the product's page, where its Integrate panel is.
    await list().getByRole('link', { name: 'Integrate' }).click();
    await admin.getByRole('heading', { level: 1, name: 'Starter Plugin' }).waitFor();

    const customer = await createCustomer(t);
    const license = await newLicense(t, { customerId: customer.id, productId: product.id });
    const endpoint = await t.admin('POST', '/webhook-endpoints', { body: { url: 'http://127.0.0.1:9/licensing', events: ['licenses.delete'] } });
    expect(endpoint.status).toBe(201);
    await admin.goto(`${t.baseUrl}/portal/`);
    await expect.poll(stepNames).toEqual(['Create a product ✓', 'Issue a license ✓', 'Integrate', 'Add a webhook ✓']);

    expect((await validate(t, { licenseId: license.id, productId: product.id, hwid: 'first-machine' })).json).toMatchObject({ valid: true });
    await admin.goto(`${t.baseUrl}/portal/`);
    await admin.getByTestId('stat-active-licenses').getByText('1').waitFor();
    await admin.getByRole('heading', { name: 'Latest activity' }).waitFor();
    expect(await list().count()).toBe(0);
  }, STEP);

  it('is not shown to an account that can take none of the steps', async () => {
    const fresh = await startTestApp('sqlite');
    try {
      const viewer = await staffWith(fresh, ['customers:read', 'products:read', 'licenses:read']);
      const page = await openPage(browser);
      await signIn(page, fresh.baseUrl, viewer.username, viewer.password);
      await page.getByTestId('stat-products').getByText('0').waitFor();
      await page.waitForLoadState('networkidle');
      expect(await page.getByRole('region', { name: 'Getting started' }).count()).toBe(0);
      await page.context().close();
      // The same empty installation shows it to the Master Admin.
      const root = await openPage(browser);
      await signIn(root, fresh.baseUrl, ADMIN.username, ADMIN.password);
      await root.getByRole('region', { name: 'Getting started' }).waitFor();
      await root.context().close();
    } finally {
      await fresh.close();
    }
  }, STEP);

  it('raised no uncaught error in the browser', () => {
    expect(pageErrors).toEqual([]);
  });
});
