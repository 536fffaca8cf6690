// Staff administration in a real browser: a role built in the permission grid, a
// registration key generated and copied, self-registration, role assignment; a
// read-only account sees no edit controls; deactivation sends it back to sign-in.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCustomer, createProduct, newLicense } from '../test/helpers/fixtures.js';
import { ADMIN, startTestApp, type TestApp } from '../test/helpers/test-app.js';
import { launchBrowser, navLink, openPage, pageErrors, screenshot, signIn } from './support/browser.js';

const STEP = 60_000;
const VIEWER = { username: 'viewer', email: 'viewer@example.com', password: 'viewer-password-1' };
const READ_ONLY = ['customers:read', 'products:read', 'licenses:read', 'orders:read', 'actions:read'];

describe('portal: staff, roles, registration keys and permissions', () => {
  let t: TestApp;
  let browser: Browser;
  let admin: Page;
  let viewer: Page;
  let registrationKey = '';
  const records = { customerId: '', productId: '', licenseKey: '' };

  beforeAll(async () => {
    [t, browser] = await Promise.all([startTestApp('sqlite'), launchBrowser()]);
    const customer = await createCustomer(t, { name: 'Read Only Corp' });
    const product = await createProduct(t, { name: 'Viewer Product', maxIps: 1 });
    const license = await newLicense(t, { customerId: customer.id, productId: product.id, maxHwids: 1 });
    await t.req('POST', '/licenses/validate', { body: { licenseId: license.id, productId: product.id, hwid: 'hw-1' } });
    Object.assign(records, { customerId: customer.id, productId: product.id, licenseKey: license.id });
    admin = await openPage(browser);
    viewer = await openPage(browser);
    await signIn(admin, t.baseUrl, ADMIN.username, ADMIN.password);
  }, STEP);

  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  it('creates a role in the permission grid', async () => {
    await navLink(admin, 'Roles').click();
    await admin.getByText('No roles yet.').waitFor();
    await admin.getByRole('link', { name: 'New role' }).click();
    await admin.getByLabel('Name', { exact: true }).fill('Viewer');
    for (const permission of READ_ONLY) await admin.getByLabel(permission, { exact: true }).check();
    await admin.getByRole('button', { name: 'Create role' }).click();
    await admin.getByRole('heading', { name: 'Role: Viewer' }).waitFor();
    await screenshot(admin, 'role');

    const roles = (await t.admin('GET', '/roles')).json as { name: string; permissions: string[] }[];
    expect(roles).toEqual([expect.objectContaining({ name: 'Viewer' })]);
    expect([...roles[0]!.permissions].sort()).toEqual([...READ_ONLY].sort());
  }, STEP);

  it('generates a registration key (Master Admin), copies it, and revokes another', async () => {
    await admin.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: t.baseUrl });
    await navLink(admin, 'Registration keys').click();
    await admin.getByLabel('Note (optional)').fill('for the viewer');
    await admin.getByRole('button', { name: 'Generate key' }).click();
    registrationKey = (await admin.getByTestId('new-registration-key').innerText()).trim();
    expect(registrationKey.length).toBeGreaterThanOrEqual(20);
    await admin.getByRole('button', { name: 'Copy', exact: true }).click();
    await admin.getByRole('button', { name: /Copied/ }).waitFor();
    expect(await admin.evaluate('navigator.clipboard.readText()')).toBe(registrationKey);

    await admin.getByLabel('Note (optional)').fill('spare');
    await admin.getByRole('button', { name: 'Generate key' }).click();
    await admin.getByRole('row', { name: /spare/ }).getByRole('button', { name: 'Revoke' }).click();
    await admin.getByRole('dialog').getByRole('button', { name: 'Revoke key' }).click();
    await admin.getByRole('row', { name: /spare/ }).waitFor({ state: 'detached' });
    await screenshot(admin, 'registration-keys');
    const keys = (await t.admin('GET', '/admin/registration-keys')).json as { note: string }[];
    expect(keys.map((k) => k.note)).toEqual(['for the viewer']);
  }, STEP);

  it('lets a new staff member register with the key', async () => {
    await viewer.goto(`${t.baseUrl}/portal/sign-in`);
    await viewer.getByRole('link', { name: 'Create your account' }).click();
    await viewer.getByLabel('Registration key').fill(registrationKey);
    await viewer.getByLabel('Username').fill(VIEWER.username);
    await viewer.getByLabel('Email').fill(VIEWER.email);
    await viewer.getByLabel('Password').fill(VIEWER.password);
    await viewer.getByRole('button', { name: 'Create account' }).click();
    await viewer.getByText(`Account ${VIEWER.username} created`).waitFor();
  }, STEP);

  it('assigns the role on the staff page', async () => {
    await navLink(admin, 'Staff').click();
    await admin.getByRole('button', { name: `Roles of ${VIEWER.username}` }).click();
    await admin.getByRole('checkbox', { name: 'Viewer' }).check();
    await admin.getByRole('button', { name: 'Save roles' }).click();
    await admin.getByRole('row', { name: new RegExp(`${VIEWER.username}.*Viewer.*Active`) }).waitFor();
    await screenshot(admin, 'staff');
  }, STEP);

  it('shows a read-only account no edit controls', async () => {
    await signIn(viewer, t.baseUrl, VIEWER.username, VIEWER.password);
    const sections = await viewer.getByRole('navigation', { name: 'Sections' }).getByRole('link').allInnerTexts();
    expect(sections).toEqual(['Dashboard', 'Customers', 'Products', 'Licenses', 'Orders', 'Audit log']);
    const buttonsAndLinks = async () =>
      [...(await viewer.getByRole('button').allInnerTexts()), ...(await viewer.locator('.content').getByRole('link').allInnerTexts())].join('|');

    await navLink(viewer, 'Customers').click();
    await viewer.getByRole('link', { name: 'Read Only Corp' }).click();
    await viewer.getByRole('region', { name: 'Licenses' }).waitFor();
    expect(await buttonsAndLinks()).not.toMatch(/New customer|Edit|Delete|Issue a license|Record an order/);

    await viewer.getByRole('link', { name: records.licenseKey }).click();
    await viewer.getByTestId('bound-hwids').waitFor();
    expect(await viewer.getByRole('button', { name: /Release/ }).count()).toBe(0);
    expect(await viewer.getByRole('button', { name: 'Save changes' }).count()).toBe(0);
    expect(await viewer.getByRole('button', { name: 'Delete' }).count()).toBe(0);
    expect(await viewer.getByRole('button', { name: 'Copy key' }).count()).toBe(1);
    await screenshot(viewer, 'license-read-only');

    for (const [section, forbidden] of [['Products', 'New product'], ['Licenses', 'Issue license'], ['Orders', 'New order']] as const) {
      await navLink(viewer, section).click();
      await viewer.getByRole('heading', { name: section }).waitFor();
      expect(await viewer.getByRole('link', { name: forbidden }).count()).toBe(0);
    }
    await viewer.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Products' }).click();
    await viewer.getByRole('link', { name: 'Viewer Product' }).click();
    await viewer.getByText('Marketplace resource id').waitFor();
    expect(await viewer.getByRole('button', { name: 'Save product' }).count()).toBe(0);

    await viewer.goto(`${t.baseUrl}/portal/customers/new`);
    await viewer.getByText('Your account cannot open this page: it needs the permission customers:write.').waitFor();
  }, STEP);

  it('returns a deactivated account to sign-in and refuses it there', async () => {
    await navLink(viewer, 'Dashboard').click();
    await navLink(admin, 'Staff').click();
    await admin.getByRole('button', { name: `Deactivate ${VIEWER.username}` }).click();
    await admin.getByRole('row', { name: new RegExp(`${VIEWER.username}.*Deactivated`) }).waitFor();

    await navLink(viewer, 'Customers').click();
    await viewer.getByRole('heading', { name: 'Sign in' }).waitFor();
    await viewer.getByText('Your session has ended').waitFor();
    expect(await viewer.evaluate('Object.keys(localStorage)')).toEqual([]);

    await viewer.getByLabel('Username').fill(VIEWER.username);
    await viewer.getByLabel('Password').fill(VIEWER.password);
    await viewer.getByRole('button', { name: 'Sign in' }).click();
    await expect.poll(() => viewer.getByRole('alert').innerText()).toContain('Account is deactivated');
    await screenshot(viewer, 'sign-in-deactivated');
  }, STEP);

  it('shows the staff changes in the audit log', async () => {
    await navLink(admin, 'Audit log').click();
    const events = admin.getByTestId('audit-row').locator('td:nth-child(2)');
    await expect.poll(() => events.allInnerTexts()).toEqual(
      expect.arrayContaining(['roles.create', 'registrationKey.generate', 'staff.create', 'staff.setRoles', 'staff.setActive']),
    );
    expect((await events.allInnerTexts())[0]).toBe('staff.setActive');
    await admin.getByRole('row', { name: /staff\.setActive/ }).getByText('Show snapshot').click();
    const snapshot = JSON.parse(await admin.locator('pre.json').first().innerText());
    expect(snapshot).toMatchObject({ username: VIEWER.username, active: false });
    expect(JSON.stringify(snapshot)).not.toMatch(/password/i);
  }, STEP);

  it('signs out', async () => {
    await admin.getByRole('button', { name: 'Sign out' }).click();
    await admin.getByText('You have signed out.').waitFor();
    await admin.goto(`${t.baseUrl}/portal/licenses`);
    await admin.getByRole('heading', { name: 'Sign in' }).waitFor();
  }, STEP);

  it('raised no uncaught error in the browser', () => {
    expect(pageErrors).toEqual([]);
  });
});
