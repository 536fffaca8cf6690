// Signed answers in a real browser: the Master Admin rotates the signing key (next, activate,
// delete; and a leaked key replaced at once), a product's
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

  it('rotates the signing key in the safe order: create next, activate, delete the old key; and replaces a leaked key at once', async () => {
    type Keys = { keys: { kid: string }[] };
    const kids = async () => ((await t.req('GET', '/.well-known/jwks.json')).json as Keys).keys.map((k) => k.kid);
    const row = (kid: string) => admin.getByRole('row', { name: new RegExp(kid.slice(0, 12)) });
    const [oldKid] = await kids();
    await navLink(admin, 'Signing keys').click();
    await row(oldKid!).getByText('Current').waitFor();
    expect(await admin.getByTestId('rotation-order').innerText()).toMatch(/create a next key, ship a release .* activate .* delete the old key/);

    await admin.getByRole('button', { name: 'Create next key' }).click();
    await admin.getByText(/Next key .* created/).waitFor();
    const [, nextKid] = await kids();
    await row(nextKid!).getByText(/Next \(published, not signing\)/).waitFor();
    expect(await admin.getByRole('button', { name: 'Create next key' }).isDisabled()).toBe(true);
    await screenshot(admin, 'signing-keys-next');

    await row(nextKid!).getByRole('button', { name: 'Activate' }).click();
    await admin.getByRole('dialog').getByRole('button', { name: 'Activate' }).click();
    await row(nextKid!).getByText('Current').waitFor();
    await row(oldKid!).getByText(/Retired/).waitFor();
    expect(await kids()).toEqual([nextKid, oldKid]);

    await row(oldKid!).getByRole('button', { name: 'Delete' }).click();
    await admin.getByRole('dialog').getByRole('button', { name: 'Delete key' }).click();
    await expect.poll(kids).toEqual([nextKid]);

    // A leaked key: replaced at once, after a confirmation.
    await admin.getByRole('button', { name: 'Key leaked: replace now' }).click();
    await admin.getByRole('dialog').getByRole('button', { name: 'Replace now' }).click();
    await admin.getByText(/is now current/).waitFor();
    const after = await kids();
    expect(after).toHaveLength(2);
    expect(after[1]).toBe(nextKid);
    await row(nextKid!).getByText(/Retired/).waitFor();
    expect(JSON.parse(await admin.getByTestId('jwks').innerText()).keys.map((k: { kid: string }) => k.kid)).toEqual(after);
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

  it('shows when each key last signed (issue #28), so the Master Admin can judge when an old key can go', async () => {
    type Key = { kid: string; state: string; lastSignedAtEpochMillis: number | null };
    const list = async () => (await t.admin('GET', '/admin/signing-keys')).json as Key[];
    const current = (await list()).find((k) => k.state === 'current')!;
    const retired = (await list()).find((k) => k.state === 'retired')!;
    const license = await newLicense(t);
    // An installed copy that pins only the retired key: the retired key signs its receipt.
    const res = await t.req('POST', '/licenses/validate', {
      body: { licenseId: license.id, productId: license.productId, hwid: 'old-copy', nonce: 'n'.repeat(32) },
      headers: { 'receipt-key-ids': retired.kid },
    });
    expect(res.headers['validation-receipt']).toBeTruthy();
    const signedAt = (await list()).find((k) => k.kid === retired.kid)!.lastSignedAtEpochMillis;
    expect(signedAt).toEqual(expect.any(Number));

    await admin.goto(`${t.baseUrl}/portal/signing-keys`);
    await admin.getByRole('button', { name: 'Create next key' }).click();
    await admin.getByText(/Next key .* created/).waitFor();
    const next = (await list()).find((k) => k.state === 'next')!;
    const lastSigned = (kid: string) => admin.getByRole('row', { name: new RegExp(kid.slice(0, 12)) }).getByTestId('last-signed');
    await expect.poll(() => lastSigned(next.kid).innerText()).toBe('Never');
    expect(await lastSigned(retired.kid).innerText()).toMatch(/now|seconds? ago|minutes? ago/);
    // The exact time, with seconds, on hover.
    expect(await lastSigned(retired.kid).locator('time').getAttribute('datetime')).toBe(new Date(signedAt!).toISOString());
    expect(await lastSigned(current.kid).innerText()).not.toBe('Never'); // it signed the license file above
    expect(await admin.getByTestId('last-signed-help').innerText()).toMatch(/no longer needed/);
    await screenshot(admin, 'signing-keys-last-signed');
  }, STEP);

  it('raised no uncaught error in the browser', () => {
    expect(pageErrors).toEqual([]);
  });
});
