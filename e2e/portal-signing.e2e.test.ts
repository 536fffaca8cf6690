// Signed answers in a real browser: the Master Admin rotates the signing key, a product's
// Integrate panel shows its id, the key set and copyable snippets, and a license page
// downloads a license file that verifies.
import { readFileSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyJws } from '../test/helpers/jws.js';
import { newLicense } from '../test/helpers/fixtures.js';
import { ADMIN, startTestApp, type TestApp } from '../test/helpers/test-app.js';
import { launchBrowser, navLink, openPage, pageErrors, screenshot, signIn } from './support/browser.js';

const STEP = 60_000;

describe('portal: signing keys, Integrate panel, license files', () => {
  let t: TestApp;
  let browser: Browser;
  let admin: Page;

  beforeAll(async () => {
    [t, browser] = await Promise.all([startTestApp('sqlite'), launchBrowser()]);
    admin = await openPage(browser);
    await signIn(admin, t.baseUrl, ADMIN.username, ADMIN.password);
  }, STEP);

  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  it('rotates the signing key from the Signing keys page', async () => {
    const before = (await t.req('GET', '/.well-known/jwks.json')).json as { keys: { kid: string }[] };
    await navLink(admin, 'Signing keys').click();
    await admin.getByRole('row', { name: new RegExp(before.keys[0]!.kid.slice(0, 12)) }).getByText('Current').waitFor();
    await admin.getByRole('button', { name: 'Rotate key' }).click();
    await admin.getByRole('dialog').getByRole('button', { name: 'Rotate' }).click();
    await admin.getByText(/is now current/).waitFor();
    const after = (await t.req('GET', '/.well-known/jwks.json')).json as { keys: { kid: string }[] };
    expect(after.keys.map((k) => k.kid)).toEqual([expect.any(String), before.keys[0]!.kid]);
    await admin.getByRole('row', { name: new RegExp(before.keys[0]!.kid.slice(0, 12)) }).getByText(/Retired/).waitFor();
    expect(JSON.parse(await admin.getByTestId('jwks').innerText())).toEqual(after);
    await screenshot(admin, 'signing-keys');
  }, STEP);

  it('shows the product id, the key set and copyable snippets on a product page', async () => {
    await admin.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: t.baseUrl });
    const license = await newLicense(t);
    await admin.goto(`${t.baseUrl}/portal/products/${license.productId}`);
    const panel = admin.getByTestId('integrate-panel');
    await panel.getByRole('heading', { name: 'Integrate' }).waitFor();
    expect(await panel.getByTestId('integrate-product-id').innerText()).toBe(license.productId);
    const jwks = (await t.req('GET', '/.well-known/jwks.json')).json;
    await panel.getByTestId('integrate-jwks').waitFor();
    expect(JSON.parse(await panel.getByTestId('integrate-jwks').innerText())).toEqual(jwks);
    for (const id of ['curl', 'typescript', 'java']) expect(await panel.getByTestId(`snippet-${id}`).innerText()).toContain(license.productId);
    await panel.getByRole('button', { name: 'Copy java snippet' }).click();
    await panel.getByRole('button', { name: /Copied/ }).waitFor();
    expect(await admin.evaluate('navigator.clipboard.readText()')).toContain('new LicenseClient(');
    await panel.getByRole('button', { name: 'Copy JWK Set' }).click();
    expect(JSON.parse((await admin.evaluate('navigator.clipboard.readText()')) as string)).toEqual(jwks);
    await screenshot(admin, 'integrate-panel');
  }, STEP);

  it('downloads a license file from the license page', async () => {
    const license = await newLicense(t);
    await admin.goto(`${t.baseUrl}/portal/licenses/${license.id}`);
    const [download] = await Promise.all([admin.waitForEvent('download'), admin.getByRole('button', { name: 'Download license file' }).click()]);
    expect(download.suggestedFilename()).toBe(`${license.id}.lic`);
    const content = readFileSync((await download.path())!, 'utf8').trim();
    const { header, payload } = verifyJws(content, (await t.req('GET', '/.well-known/jwks.json')).json);
    expect(header.typ).toBe('license-file');
    expect(payload).toMatchObject({ licenseId: license.id, productId: license.productId });
    const audit = (await t.admin('GET', '/actions?name=licenses.issueFile')).json as { performedBy: string }[];
    expect(audit.map((a) => a.performedBy)).toEqual([ADMIN.username]);
  }, STEP);

  it('raised no uncaught error in the browser', () => {
    expect(pageErrors).toEqual([]);
  });
});
