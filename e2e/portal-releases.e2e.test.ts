// A product's Releases tab and the leaked-jar trace in real Chromium: a release created in
// the form (the browser's version check first), its file uploaded through the file input
// (progress to 100 %, the sha256 the service computed) and replaced by a drop on the drop
// zone, a 413 and a 400 said plainly, notes saved, publish / deprecate / archive / delete
// offered only where the API allows them, licensed downloads (done through the API) in the
// release's list, its chart and the tab's counts; the trace page finds a stamped download
// and says "Not a stamped download" of another jar; 1280 and 390 px wide without sideways scrolling; no edit controls for a read-only account.
import { createHash } from 'node:crypto';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProduct, newLicense, staffWith } from '../test/helpers/fixtures.js';
import { downloadRelease, newRelease, storedZip } from '../test/helpers/releases.js';
import { ADMIN, startTestApp, type TestApp } from '../test/helpers/test-app.js';
import { LAPTOP, PHONE, launchBrowser, navLink, openPage, pageErrors, signIn } from './support/browser.js';
import { dayIn } from './support/chart.js';
import { layoutFacts, pageScreenshot } from './support/layout.js';

const STEP = 60_000;
/** Small, so that a too-large upload is quick to make. */
const MAX_BYTES = 16_384;

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

interface Release {
  id: string;
  version: string;
  status: string;
  notes: string | null;
  file: { name: string; size: number; sha256: string; mainClass: string | null } | null;
}

describe('portal: releases', () => {
  let t: TestApp;
  let browser: Browser;
  let admin: Page;
  let product: { id: string; name: string };
  let license: { id: string; customerId: string };
  let release: Release;
  const pluginJar = storedZip({ 'plugin.yml': 'name: Demo\nmain: demo.Main\nversion: 1.0.0\n', 'demo/Main.class': Buffer.alloc(600, 7) });

  const releasesTab = () => `${t.baseUrl}/portal/products/${product.id}/releases`;
  const releasePage = (id: string) => `${releasesTab()}/${id}`;
  const readRelease = async (id: string) => (await t.admin('GET', `/releases/${id}`)).json as Release;
  const headerButton = (page: Page, name: string) => page.locator('.page-header').getByRole('button', { name, exact: true });
  const headerButtons = async (page: Page) =>
    (await page.locator('.page-header > .actions > button:not([disabled])').allInnerTexts()).map((text) => text.trim());
  const statusIs = (page: Page, status: string) => page.locator('.card').getByTestId('release-status').getByText(status, { exact: true }).waitFor();

  beforeAll(async () => {
    [t, browser] = await Promise.all([startTestApp('sqlite', { RELEASE_MAX_BYTES: String(MAX_BYTES) }), launchBrowser()]);
    product = await createProduct(t, { name: 'Northwind Server Plugin' });
    license = await newLicense(t, { productId: product.id });
    admin = await openPage(browser);
    await signIn(admin, t.baseUrl, ADMIN.username, ADMIN.password);
  }, STEP);

  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  it('creates a release from the product Releases tab after checking the version in the browser', async () => {
    await admin.goto(`${t.baseUrl}/portal/products/${product.id}`);
    await admin.getByRole('navigation', { name: 'Product sections' }).getByRole('link', { name: 'Releases' }).click();
    await admin.getByText('No releases yet.').waitFor();

    await admin.getByLabel('Version').fill('1.0 final');
    await admin.getByRole('button', { name: 'Create release' }).click();
    await admin.getByText('Use only letters, digits and . + _ -').waitFor();
    expect((await t.admin('GET', `/products/${product.id}/releases`)).json).toEqual([]);

    await admin.getByLabel('Version').fill('1.0.0');
    await admin.getByLabel('Channel').selectOption('stable');
    await admin.getByLabel('Notes (optional)').fill('First release');
    await admin.getByRole('button', { name: 'Create release' }).click();
    await admin.getByRole('heading', { level: 1, name: 'Release 1.0.0' }).waitFor();
    const listed = (await t.admin('GET', `/products/${product.id}/releases`)).json as Release[];
    expect(listed).toHaveLength(1);
    release = listed[0]!;
    expect(release).toMatchObject({ version: '1.0.0', status: 'draft', notes: 'First release', file: null });
    expect(admin.url()).toBe(releasePage(release.id));

    // A draft without a file cannot be published yet, and says why; it may be deleted.
    expect(await headerButton(admin, 'Publish').isDisabled()).toBe(true);
    await admin.getByText('Upload its file first.').waitFor();
    await expect.poll(() => headerButtons(admin)).toEqual(['Delete']);

    // The same version again in the same channel: the API's 409 beside the version.
    await admin.goto(releasesTab());
    await admin.getByLabel('Version').fill('1.0.0');
    await admin.getByRole('button', { name: 'Create release' }).click();
    await admin.locator('.field-invalid', { has: admin.getByLabel('Version') }).getByText(/already exists in channel stable/).waitFor();
  }, STEP);

  it('uploads a file through the file input with its progress to 100 % and shows the sha256 the service computed', async () => {
    await admin.goto(releasePage(release.id));
    const bytes = Buffer.alloc(12_000, 'plugin bytes ');
    await admin.getByLabel('Choose a file').setInputFiles({ name: 'northwind-1.0.0.bin', mimeType: 'application/octet-stream', buffer: bytes });
    await admin.getByText('Uploaded northwind-1.0.0.bin.').waitFor();
    expect(await admin.getByTestId('upload-percent').innerText()).toBe('100%');
    expect(await admin.getByTestId('upload-progress').locator('progress').getAttribute('value')).toBe('100');
    await admin.getByTestId('release-sha256').getByText(sha256(bytes)).waitFor();
    expect(await admin.getByTestId('release-file-name').innerText()).toBe('northwind-1.0.0.bin (11.7 KB)');
    expect((await readRelease(release.id)).file).toMatchObject({ name: 'northwind-1.0.0.bin', size: 12_000, sha256: sha256(bytes) });
  }, STEP);

  it('says plainly when a file is too large (413) or not a readable jar (400), and keeps the file it had', async () => {
    await admin.goto(releasePage(release.id));
    const before = (await readRelease(release.id)).file;

    await admin.getByLabel('Choose a file').setInputFiles({ name: 'huge.bin', mimeType: 'application/octet-stream', buffer: Buffer.alloc(MAX_BYTES + 1, 1) });
    const error = admin.getByTestId('upload-error');
    await error.waitFor();
    expect(await error.innerText()).toBe(`huge.bin was not uploaded. Too large: File is larger than RELEASE_MAX_BYTES (${MAX_BYTES} bytes)`);

    await admin.getByLabel('Choose a file').setInputFiles({ name: 'broken.jar', mimeType: 'application/java-archive', buffer: Buffer.from('not a zip at all') });
    await error.getByText('broken.jar was not uploaded. Not accepted: broken.jar is not a readable jar (zip)', { exact: false }).waitFor();
    expect((await readRelease(release.id)).file).toEqual(before);
  }, STEP);

  it('replaces the draft file by a drop on the drop zone and reads the plugin main class', async () => {
    await admin.goto(releasePage(release.id));
    // A DataTransfer with the jar, as the browser hands a dropped file to the page.
    const transfer = await admin.evaluateHandle(
      `(() => {
        const transfer = new DataTransfer();
        const bytes = Uint8Array.from(atob(${JSON.stringify(pluginJar.toString('base64'))}), (c) => c.charCodeAt(0));
        transfer.items.add(new File([bytes], 'Northwind-1.0.0.jar', { type: 'application/java-archive' }));
        return transfer;
      })()`,
    );
    await admin.getByTestId('drop-zone').dispatchEvent('dragenter', { dataTransfer: transfer });
    expect(await admin.getByTestId('drop-zone').getAttribute('class')).toContain('drop-zone-over');
    await admin.getByTestId('drop-zone').dispatchEvent('drop', { dataTransfer: transfer });
    await admin.getByText('Uploaded Northwind-1.0.0.jar.').waitFor();
    expect(await admin.getByTestId('upload-percent').innerText()).toBe('100%');
    await admin.getByTestId('release-sha256').getByText(sha256(pluginJar)).waitFor();
    await admin.getByText('demo.Main', { exact: true }).waitFor();
    expect((await readRelease(release.id)).file).toMatchObject({ name: 'Northwind-1.0.0.jar', sha256: sha256(pluginJar), mainClass: 'demo.Main' });
  }, STEP);

  it('saves the notes', async () => {
    await admin.goto(releasePage(release.id));
    await admin.getByLabel('Release notes').fill('First release\n\nFixes the login bug');
    await admin.getByRole('button', { name: 'Save notes' }).click();
    await admin.getByText('Notes saved.').waitFor();
    expect((await readRelease(release.id)).notes).toBe('First release\n\nFixes the login bug');
  }, STEP);

  it('publishes, deprecates, archives and deletes only where the API allows it', async () => {
    await admin.goto(releasePage(release.id));
    await headerButton(admin, 'Publish').click();
    await statusIs(admin, 'Published');
    await expect.poll(() => headerButtons(admin)).toEqual(['Deprecate', 'Archive']);
    // A published file cannot change: no drop zone, a note instead.
    expect(await admin.getByTestId('drop-zone').count()).toBe(0);
    await admin.getByText('The file of a published release cannot change').waitFor();
    expect((await readRelease(release.id)).status).toBe('published');

    // Another release goes the whole way: deprecated, archived (after asking), deleted (after asking).
    const old = (await newRelease(t, product.id, { version: '0.9.0' })) as Release;
    await admin.goto(releasePage(old.id));
    await headerButton(admin, 'Deprecate').click();
    await statusIs(admin, 'Deprecated');
    await expect.poll(() => headerButtons(admin)).toEqual(['Publish', 'Archive']);

    await headerButton(admin, 'Archive').click();
    const dialog = admin.getByRole('dialog', { name: 'Archive release 0.9.0?' });
    await dialog.getByText('Licenses no longer receive it.', { exact: false }).waitFor();
    await dialog.getByRole('button', { name: 'Archive' }).click();
    await statusIs(admin, 'Archived');
    await expect.poll(() => headerButtons(admin)).toEqual(['Publish', 'Deprecate', 'Delete']);

    await headerButton(admin, 'Delete').click();
    await admin.getByRole('dialog', { name: 'Delete release 0.9.0?' }).getByRole('button', { name: 'Delete' }).click();
    await admin.getByText('No more releases.').or(admin.getByTestId('release-row').first()).waitFor();
    expect(admin.url()).toBe(releasesTab());
    expect((await t.admin('GET', `/releases/${old.id}`)).status).toBe(404);
    expect(await admin.getByTestId('release-row').allInnerTexts()).toHaveLength(1);
  }, STEP);

  it('lists licensed downloads made through the API, counts them in the tab and charts them per day', async () => {
    const first = await downloadRelease(t, { licenseId: license.id, productId: product.id, hwid: 'workstation-01' });
    const second = await downloadRelease(t, { licenseId: license.id, productId: product.id, hwid: 'workstation-02' });
    expect([first.status, second.status]).toEqual([200, 200]);

    await admin.goto(releasePage(release.id));
    const rows = admin.getByTestId('download-row');
    await rows.nth(1).waitFor();
    expect(await rows.count()).toBe(2);
    // Newest first: the second download on top, its license linked, the sha256 of the bytes sent.
    const top = await rows.first().innerText();
    expect(top).toContain('workstation-02');
    expect(top).toContain('127.0.0.1');
    expect(top).toContain(String(second.headers['x-release-sha256']).slice(0, 12));
    await rows.first().getByRole('link', { name: license.id }).waitFor();
    await admin.getByTestId('page-range').getByText('1–2 of 2').waitFor();

    const chart = admin.getByTestId('downloads-chart');
    const today = dayIn(Intl.DateTimeFormat().resolvedOptions().timeZone, Date.now());
    const cells = await chart.locator('tbody tr').evaluateAll((trs) =>
      trs.map((tr) => Array.from((tr as unknown as { cells: ArrayLike<{ textContent: string | null }> }).cells).map((cell) => cell.textContent ?? '')),
    );
    expect(cells).toHaveLength(14);
    expect(cells.filter(([, count]) => count !== '0')).toEqual([[today, '2']]);
    expect(await chart.getByTestId('bar-total').allInnerTexts()).toContain('2');
    expect(await chart.locator('figcaption').innerText()).toContain('(2 in 14 days)');

    await rows.first().getByRole('link', { name: license.id }).click();
    await admin.getByRole('heading', { level: 1, name: 'License' }).waitFor();

    await admin.goto(releasesTab());
    const row = admin.getByTestId('release-row').filter({ hasText: '1.0.0' });
    await row.getByTestId('download-count').getByText('2', { exact: true }).waitFor();
    expect(await row.innerText()).toContain('Published');
    expect(await row.innerText()).toContain('Northwind-1.0.0.jar');
  }, STEP);

  it('traces a jar: its license, customer and download for a stamped one, "Not a stamped download" for a jar the service did not stamp, a plain error for a non-jar', async () => {
    await navLink(admin, 'Trace a leaked jar').click();
    await admin.getByRole('heading', { level: 1, name: 'Trace a leaked jar' }).waitFor();

    await admin.getByLabel('Choose a jar').setInputFiles({ name: 'found-on-a-forum.jar', mimeType: 'application/java-archive', buffer: pluginJar });
    const notFound = admin.getByTestId('trace-not-found');
    await notFound.waitFor();
    expect(await notFound.innerText()).toContain('Not a stamped download.');
    expect(await notFound.innerText()).toContain('found-on-a-forum.jar');

    await admin.getByLabel('Choose a jar').setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('hello') });
    await admin.getByRole('alert').getByText('notes.txt could not be traced: The body is not a readable jar (zip)').waitFor();
    expect(await notFound.count()).toBe(0);

    // A downloaded jar is stamped for its download: the page shows the license, customer and download.
    const downloaded = await downloadRelease(t, { licenseId: license.id, productId: product.id, hwid: 'workstation-03' });
    const traced = await t.admin('POST', '/releases/trace', { rawBody: downloaded.bytes, headers: { 'content-type': 'application/java-archive' } });
    expect(traced.status, traced.text).toBe(200);
    await admin.getByLabel('Choose a jar').setInputFiles({ name: 'leaked.jar', mimeType: 'application/java-archive', buffer: downloaded.bytes });
    const result = admin.getByTestId('trace-result');
    await result.waitFor();
    await result.getByRole('link', { name: license.id }).waitFor();
    await result.getByRole('link', { name: license.customerId }).waitFor();
    expect(await result.innerText()).toContain('workstation-03');
  }, STEP);

  it('fits 1280 and 390 px: the tab, the release page and the trace page without sideways scrolling', async () => {
    const draft = (await newRelease(t, product.id, { version: '1.1.0-beta.1+build.20260310', channel: 'beta', publish: false })) as Release;
    const problems: string[] = [];
    for (const [size, viewport] of [['laptop', LAPTOP], ['phone', PHONE]] as const) {
      const page = await openPage(browser, viewport);
      await signIn(page, t.baseUrl, ADMIN.username, ADMIN.password);
      const check = async (name: string) => {
        await page.waitForLoadState('networkidle');
        const facts = await layoutFacts(page);
        if (facts.scrollWidth > viewport.width) problems.push(`${size} ${name}: ${facts.scrollWidth}px wide`);
        for (const cell of facts.cellsOutOfView) problems.push(`${size} ${name}: ${cell} out of view`);
        await pageScreenshot(page, size, name);
      };
      await page.goto(releasesTab());
      await page.getByTestId('release-row').first().waitFor();
      await check('product-releases');
      await page.goto(releasePage(release.id));
      await page.getByTestId('download-row').first().waitFor();
      await check('release');
      // A draft shows the drop zone and the progress of an upload (a long name and version).
      await page.goto(releasePage(draft.id));
      await page.getByLabel('Choose a file').setInputFiles({ name: 'northwind-server-plugin-1.1.0-beta.1-all-platforms.jar', mimeType: 'application/java-archive', buffer: pluginJar });
      await page.getByText('Uploaded northwind-server-plugin-1.1.0-beta.1-all-platforms.jar.').waitFor();
      await check('release-draft');
      await page.goto(`${t.baseUrl}/portal/trace`);
      await page.getByLabel('Choose a jar').setInputFiles({ name: 'found.jar', mimeType: 'application/java-archive', buffer: pluginJar });
      await page.getByTestId('trace-not-found').waitFor();
      await check('trace');
      await page.context().close();
    }
    expect(problems).toEqual([]);
  }, STEP);

  it('shows a releases:read account the releases without any edit control, and an account without it no tab or trace', async () => {
    const reader = await staffWith(t, ['products:read', 'releases:read']);
    const page = await openPage(browser);
    await signIn(page, t.baseUrl, reader.username, reader.password);
    await navLink(page, 'Trace a leaked jar').waitFor();
    await page.goto(`${t.baseUrl}/portal/products/${product.id}`);
    await page.getByRole('navigation', { name: 'Product sections' }).getByRole('link', { name: 'Releases' }).click();
    await page.getByTestId('release-row').first().waitFor();
    expect(await page.getByRole('button', { name: 'Create release' }).count()).toBe(0);

    await page.goto(releasePage(release.id));
    await page.getByTestId('download-row').first().waitFor();
    expect(await page.locator('.page-header .actions').count()).toBe(0);
    for (const name of ['Publish', 'Deprecate', 'Archive', 'Delete', 'Save notes']) expect(await page.getByRole('button', { name }).count()).toBe(0);
    expect(await page.getByTestId('drop-zone').count()).toBe(0);
    await page.getByText('Fixes the login bug', { exact: false }).waitFor();
    // Their licenses are not theirs to open: the key is shown, not linked.
    expect(await page.getByTestId('download-row').first().getByRole('link').count()).toBe(0);
    await page.context().close();

    const noReleases = await staffWith(t, ['products:read']);
    const other = await openPage(browser);
    await signIn(other, t.baseUrl, noReleases.username, noReleases.password);
    await other.goto(`${t.baseUrl}/portal/products/${product.id}`);
    await other.getByRole('heading', { level: 1, name: product.name }).waitFor();
    expect(await other.getByRole('navigation', { name: 'Product sections' }).count()).toBe(0);
    expect(await navLink(other, 'Trace a leaked jar').count()).toBe(0);
    await other.goto(`${t.baseUrl}/portal/trace`);
    await other.getByText('it needs the permission releases:read').waitFor();
    await other.context().close();
  }, STEP);

  it('raised no uncaught error in any page', () => {
    expect(pageErrors).toEqual([]);
  });
});
