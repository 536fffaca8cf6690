// Staff access in a real browser: API tokens limited to the caller's permissions (shown
// once, copied, revoked), password change, two-factor enrolment with the in-page QR code
// and recovery codes, sign-out that ends the token on the server, the sign-in code step,
// and the Master Admin's "set password".
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { staffWith, type StaffAccount } from '../test/helpers/fixtures.js';
import { ADMIN, startTestApp, type TestApp } from '../test/helpers/test-app.js';
import { base32Decode, codeForStep, stepAt } from '../src/modules/two-factor/totp.js';
import { launchBrowser, navLink, openPage, pageErrors, screenshot, signIn } from './support/browser.js';

const STEP = 60_000;
const codeNow = (secret: string, offset = 0) => codeForStep(base32Decode(secret), stepAt(Date.now()) + offset);
const sessionToken = async (page: Page) => {
  const stored = (await page.evaluate("localStorage.getItem('licensing-portal.session')")) as string | null;
  return stored ? (JSON.parse(stored) as { token: string }).token : null;
};

describe('portal: API tokens, password, two-factor sign-in and sign-out', () => {
  let t: TestApp;
  let browser: Browser;
  let page: Page;
  let staff: StaffAccount;
  let secret = '';

  beforeAll(async () => {
    [t, browser] = await Promise.all([startTestApp('sqlite'), launchBrowser()]);
    staff = await staffWith(t, ['customers:read', 'products:read', 'staff:read']);
    page = await openPage(browser);
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: t.baseUrl });
    await signIn(page, t.baseUrl, staff.username, staff.password);
  }, STEP);

  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  it('creates an API token from the permissions the account holds, shows it once with copy, and revokes it', async () => {
    await page.getByRole('link', { name: 'API tokens' }).click();
    await page.getByRole('heading', { name: 'API tokens' }).waitFor();
    expect(await page.getByLabel('customers:read', { exact: true }).count()).toBe(1);
    expect(await page.getByLabel('licenses:read', { exact: true }).count()).toBe(0);
    await page.getByLabel('Name').fill('nightly export');
    await page.getByLabel('customers:read', { exact: true }).check();
    await page.getByRole('button', { name: 'Create token' }).click();
    const token = (await page.getByTestId('new-api-token').innerText()).trim();
    expect(token).toMatch(/^lst_/);
    await page.getByRole('button', { name: 'Copy token' }).click();
    await page.getByRole('button', { name: /Copied/ }).waitFor();
    expect(await page.evaluate('navigator.clipboard.readText()')).toBe(token);
    await page.getByRole('row', { name: /nightly export/ }).waitFor();
    await screenshot(page, 'api-tokens');
    expect((await t.req('GET', '/customers', { token })).status).toBe(200);
    expect((await t.req('GET', '/products', { token })).status).toBe(403);

    await page.getByRole('row', { name: /nightly export/ }).getByRole('button', { name: 'Revoke' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Revoke token' }).click();
    await page.getByText('No API tokens yet.').waitFor();
    expect((await t.req('GET', '/customers', { token })).status).toBe(401);
  }, STEP);

  it('changes the password on the account page and stays signed in', async () => {
    await page.getByRole('link', { name: 'Account', exact: true }).click();
    await page.getByRole('heading', { name: 'Your account' }).waitFor();
    const before = await sessionToken(page);
    await page.getByLabel('Current password').fill(staff.password);
    await page.getByLabel('New password').fill('changed-in-the-portal');
    await page.getByRole('button', { name: 'Change password' }).click();
    await page.getByText('Password changed.').waitFor();
    await expect.poll(() => sessionToken(page)).not.toBe(before);
    expect((await t.req('GET', '/customers', { token: before! })).status).toBe(401);
    expect((await t.req('GET', '/customers', { token: (await sessionToken(page))! })).status).toBe(200);
    staff.password = 'changed-in-the-portal';
  }, STEP);

  it('enables two-factor sign-in with the QR code and the password, and shows 10 recovery codes once', async () => {
    await page.getByRole('button', { name: 'Enable two-factor sign-in' }).click();
    await page.getByRole('img', { name: 'QR code for your authenticator app' }).waitFor();
    secret = (await page.getByTestId('totp-secret').innerText()).trim();
    await screenshot(page, 'account-two-factor-qr');
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    await page.getByLabel('Code from the app').fill(codeNow(secret));
    // Turning it on needs the password too: a stolen sign-in token alone cannot.
    await page.getByLabel('Your password').fill(staff.password);
    await page.getByRole('button', { name: 'Confirm and enable' }).click();
    const codes = page.getByRole('list', { name: 'Recovery codes' }).getByRole('listitem');
    await codes.first().waitFor();
    expect(await codes.count()).toBe(10);
    await page.getByRole('button', { name: 'Disable two-factor sign-in' }).waitFor();
    await screenshot(page, 'account-two-factor');
    expect((await t.req('GET', '/staff/me', { token: (await sessionToken(page))! })).json.totpEnabled).toBe(true);
  }, STEP);

  it('signs out through the API (the token stops working), then signs in with the code step', async () => {
    const token = (await sessionToken(page))!;
    await page.getByRole('banner').getByRole('button', { name: 'Sign out' }).click();
    await page.getByText('You have signed out.').waitFor();
    expect((await t.req('GET', '/customers', { token })).status).toBe(401);

    await page.getByLabel('Username').fill(staff.username);
    await page.getByLabel('Password').fill(staff.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByLabel('Two-factor code').waitFor();
    expect(await page.getByText('Could not sign in').count()).toBe(0);
    await page.getByLabel('Two-factor code').fill(codeNow(secret, 1));
    await page.getByRole('button', { name: 'Sign in' }).click();
    // Back to the page the account was on when it signed out.
    await page.getByRole('heading', { name: 'Your account' }).waitFor();
    expect((await t.req('GET', '/customers', { token: (await sessionToken(page))! })).status).toBe(200);
  }, STEP);

  it("lets the Master Admin set another account's password on the staff page", async () => {
    const admin = await openPage(browser);
    await signIn(admin, t.baseUrl, ADMIN.username, ADMIN.password);
    await navLink(admin, 'Staff').click();
    await admin.getByRole('button', { name: `Set password of ${staff.username}` }).click();
    await admin.getByLabel(`New password for ${staff.username}`).fill('set-by-the-master');
    await admin.getByRole('button', { name: 'Set password', exact: true }).click();
    await admin.getByText('Password set.').waitFor();
    await screenshot(admin, 'staff-set-password');
    // The password is right when the API goes on to ask for the account's second factor.
    const newPassword = await t.req('POST', '/auth/login', { body: { username: staff.username, password: 'set-by-the-master' } });
    expect(newPassword.json).toEqual({ error: 'Two-factor code required' });
    const oldPassword = await t.req('POST', '/auth/login', { body: { username: staff.username, password: staff.password } });
    expect(oldPassword.json).toEqual({ error: 'Invalid username or password' });
    expect(pageErrors).toEqual([]);
  }, STEP);
});
