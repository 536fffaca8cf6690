// Privilege boundaries in the portal (DECISIONS.md): a registration key made with roles,
// and its link, give the new account exactly those roles; a manager is not offered to
// change their own roles; and every page works under the portal's strict style-src
// (no 'unsafe-inline', no https:): no Content-Security-Policy violation anywhere.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCustomer, createRole, generateKey, newLicense } from '../test/helpers/fixtures.js';
import { ADMIN, startTestApp, type TestApp } from '../test/helpers/test-app.js';
import { launchBrowser, navLink, openPage, pageErrors, screenshot, signIn } from './support/browser.js';

const STEP = 60_000;

// Run in the page as text: this project compiles without the DOM library.
const WATCH_CSP = `(() => {
  window.__cspViolations = [];
  document.addEventListener('securitypolicyviolation', (e) =>
    window.__cspViolations.push(e.violatedDirective + ' ' + e.blockedURI + ' ' + e.sourceFile + ':' + e.lineNumber));
})()`;
const STYLED = `document.styleSheets.length > 0 && getComputedStyle(document.body).margin !== '8px'`;
// Waits for the violation report (dispatched after the insert), 5 s at most: without one the
// assertions that follow fail.
const INJECT_INLINE_STYLE = `(async () => {
  const reported = new Promise((resolve) => document.addEventListener('securitypolicyviolation', resolve, { once: true }));
  const probe = document.createElement('div');
  probe.innerHTML = '<p style="color: rgb(255, 0, 0)">x</p>';
  document.body.append(probe);
  await Promise.race([reported, new Promise((resolve) => setTimeout(resolve, 5000))]);
  return getComputedStyle(probe.firstElementChild).color;
})()`;

/** Records every CSP violation the page reports, from its first script on. */
const watchCsp = (page: Page) => page.addInitScript(WATCH_CSP);
const cspViolations = (page: Page) => page.evaluate('window.__cspViolations') as Promise<string[]>;

describe('portal: privilege boundaries and the strict style policy', () => {
  let t: TestApp;
  let browser: Browser;
  let admin: Page;
  let support: { id: string; name: string };

  beforeAll(async () => {
    [t, browser] = await Promise.all([startTestApp('sqlite'), launchBrowser()]);
    support = await createRole(t, ['customers:read', 'staff:read', 'staff:manage'], 'Support');
    await createRole(t, ['licenses:write'], 'Sales');
    admin = await openPage(browser);
    await watchCsp(admin);
    await signIn(admin, t.baseUrl, ADMIN.username, ADMIN.password);
  }, STEP);

  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  it('makes a key that grants one role; its link registers an account with exactly that role', async () => {
    await navLink(admin, 'Registration keys').click();
    await admin.getByLabel('Note (optional)').fill('for sam');
    await admin.getByRole('checkbox', { name: 'Support' }).check();
    await admin.getByRole('button', { name: 'Generate key' }).click();
    const key = (await admin.getByTestId('new-registration-key').innerText()).trim();
    const link = (await admin.getByTestId('registration-link').innerText()).trim();
    expect(link).toBe(`${t.baseUrl}/portal/register?roles=${support.id}`);
    await admin.getByRole('row', { name: /for sam.*Support.*Unused/ }).waitFor();
    await screenshot(admin, 'registration-key-with-roles');

    const newcomer = await openPage(browser);
    await watchCsp(newcomer);
    await newcomer.goto(link);
    await newcomer.getByText('The account gets the role of your registration link.').waitFor();
    await newcomer.getByLabel('Registration key').fill(key);
    await newcomer.getByLabel('Username').fill('sam');
    await newcomer.getByLabel('Email').fill('sam@example.com');
    await newcomer.getByLabel('Password').fill('sam-password-1');
    await newcomer.getByRole('button', { name: 'Create account' }).click();
    await newcomer.getByText('It has the roles of your registration key.').waitFor();
    const sam = ((await t.admin('GET', '/staff')).json as { username: string; roleIds: string[] }[]).find((s) => s.username === 'sam');
    expect(sam?.roleIds).toEqual([support.id]);
    expect(await cspViolations(newcomer)).toEqual([]);

    // The manager sam sees the staff page, but not a button to change their own roles.
    await signIn(newcomer, t.baseUrl, 'sam', 'sam-password-1');
    await navLink(newcomer, 'Staff').click();
    await newcomer.getByRole('row', { name: /sam.*Your own roles/ }).waitFor();
    expect(await newcomer.getByRole('button', { name: 'Roles of sam' }).count()).toBe(0);
    expect(await cspViolations(newcomer)).toEqual([]);
  }, STEP);

  it('shows a registration with a role the key does not grant the 403, and the key stays usable', async () => {
    const key = (await t.admin('POST', '/admin/registration-keys', { body: { roleIds: [support.id] } })).json.key as string;
    const sales = ((await t.admin('GET', '/roles')).json as { id: string; name: string }[]).find((r) => r.name === 'Sales')!;
    const page = await openPage(browser);
    await page.goto(`${t.baseUrl}/portal/register?roles=${sales.id}`);
    await page.getByLabel('Registration key').fill(key);
    await page.getByLabel('Username').fill('mallory');
    await page.getByLabel('Email').fill('mallory@example.com');
    await page.getByLabel('Password').fill('mallory-password-1');
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.getByText(`The registration key does not grant role ${sales.id}`).waitFor();
    const keys = (await t.admin('GET', '/admin/registration-keys')).json as { usedBy: string | null }[];
    expect(keys.filter((k) => k.usedBy === 'mallory')).toEqual([]);
  }, STEP);

  it('renders every page with its stylesheet and no CSP violation', async () => {
    const customer = await createCustomer(t, { name: 'Styled Corp' });
    const license = await newLicense(t, { customerId: customer.id });
    await generateKey(t);
    const paths = [
      '/portal/', '/portal/customers', `/portal/customers/${customer.id}`, '/portal/products', '/portal/licenses',
      `/portal/licenses/${license.id}`, '/portal/licenses/new', '/portal/orders', '/portal/staff', '/portal/roles',
      `/portal/roles/${support.id}`, '/portal/registration-keys', '/portal/audit', '/portal/account', '/portal/api-tokens',
      '/portal/webhooks', '/portal/signing-keys', '/portal/no-such-page',
    ];
    for (const path of paths) {
      await admin.goto(`${t.baseUrl}${path}`);
      await admin.getByRole('heading', { level: 1 }).first().waitFor();
      await admin.waitForLoadState('networkidle');
      // The stylesheet applied: the layout's own rules are in effect, not the browser's defaults.
      const styled = await admin.evaluate(STYLED);
      expect(styled, path).toBe(true);
      expect(await cspViolations(admin), path).toEqual([]);
    }
    expect(pageErrors).toEqual([]);
    // Control: an injected inline style is blocked and reported, so the watch above can fail.
    const colour = await admin.evaluate(INJECT_INLINE_STYLE);
    expect(colour).not.toBe('rgb(255, 0, 0)');
    expect((await cspViolations(admin)).join(' ')).toMatch(/style-src/);
  }, 120_000);
});
