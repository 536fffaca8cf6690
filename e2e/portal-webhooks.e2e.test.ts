// The Webhooks page against a real receiver: an endpoint created in the form (its secret
// shown once), a test event delivered and signed with that secret, a failing answer with
// its status and body, Redeliver, secret rotation, deletion; the field error of a non-http
// URL; no write controls for a read-only account; 1280 and 390 px wide.
import type { Browser, Page } from 'playwright-core';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { staffWith } from '../test/helpers/fixtures.js';
import { ADMIN, startTestApp, type TestApp } from '../test/helpers/test-app.js';
import { answer, eventOf, startReceiver, type Receiver, type Received } from '../test/helpers/webhook-receiver.js';
import { LAPTOP, PHONE, launchBrowser, navLink, openPage, pageErrors, signIn } from './support/browser.js';
import { layoutFacts, pageScreenshot } from './support/layout.js';

const STEP = 60_000;
const LONG_ERROR = 'Internal error: the orders database is locked by a running migration; try again in a minute. Trace 7f3a9c2e41b0';

describe('portal: webhooks', () => {
  let t: TestApp;
  let browser: Browser;
  let receiver: Receiver;
  let admin: Page;
  let endpointId = '';
  let secret = '';

  const pings = (r: Received) => eventOf(r).type === 'ping';
  const verify = (request: Received, withSecret: string) => new Webhook(withSecret).verify(request.body, request.headers as Record<string, string>);
  const deliveryRows = (page: Page, eventId: string) => page.getByTestId('delivery-row').filter({ hasText: eventId });
  const openEndpoint = async (page: Page) => {
    await page.goto(`${t.baseUrl}/portal/webhooks/${endpointId}`);
    await page.getByTestId('endpoint-url').waitFor();
  };

  beforeAll(async () => {
    [t, browser, receiver] = await Promise.all([
      // A receiver on 127.0.0.1 needs private networks allowed; one retry, a second later.
      startTestApp('sqlite', { WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true', WEBHOOK_RETRY_SCHEDULE_SECONDS: '1' }),
      launchBrowser(),
      startReceiver(),
    ]);
    admin = await openPage(browser);
    await signIn(admin, t.baseUrl, ADMIN.username, ADMIN.password);
  }, STEP);

  afterAll(async () => {
    await browser?.close();
    await receiver?.close();
    await t?.close();
  });

  it('checks the form in the browser, then shows the API refusing a non-http URL beside the field', async () => {
    await navLink(admin, 'Webhooks').click();
    await admin.getByText('No webhook endpoints yet.').waitFor();
    await admin.getByRole('link', { name: 'New endpoint' }).click();
    await admin.getByRole('button', { name: 'Create endpoint' }).click();
    await admin.getByText('Choose at least one event, or All events.').waitFor();
    expect(await admin.getByLabel('URL').getAttribute('aria-invalid')).toBe('true');

    await admin.getByLabel('URL').fill('ftp://x');
    await admin.getByLabel('All events').check();
    await admin.getByRole('button', { name: 'Create endpoint' }).click();
    const urlError = admin.locator('.field-invalid', { has: admin.getByLabel('URL') }).locator('.field-error');
    await expect.poll(() => urlError.innerText()).toBe('Must use http or https.');
    expect(await admin.getByText('Choose at least one event').count()).toBe(0);
    expect((await t.admin('GET', '/webhook-endpoints')).json).toEqual([]);
  }, STEP);

  it('creates an endpoint with chosen events and shows its secret once', async () => {
    await admin.goto(`${t.baseUrl}/portal/webhooks/new`);
    await admin.getByLabel('URL').fill(receiver.url);
    await admin.getByRole('group', { name: 'Licenses' }).waitFor();
    await admin.getByLabel('licenses.create', { exact: true }).check();
    await admin.getByLabel('licenses.revoke', { exact: true }).check();
    await admin.getByLabel('Description (optional)').fill('Shop fulfilment');
    await admin.getByRole('button', { name: 'Create endpoint' }).click();
    await admin.getByRole('heading', { name: 'Endpoint created' }).waitFor();
    secret = (await admin.getByTestId('webhook-secret').innerText()).trim();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    await admin.getByText('Copy it now: it is not shown again.').waitFor();

    const [created] = (await t.admin('GET', '/webhook-endpoints')).json as { id: string; events: string[]; format: string; description: string }[];
    expect(created).toMatchObject({ events: ['licenses.create', 'licenses.revoke'], format: 'standard', description: 'Shop fulfilment' });
    endpointId = created!.id;

    await admin.reload();
    await admin.getByRole('heading', { name: 'New webhook endpoint' }).waitFor();
    expect(await admin.getByTestId('webhook-secret').count()).toBe(0);

    await navLink(admin, 'Webhooks').click();
    const row = admin.getByTestId('webhook-endpoint-row');
    await row.getByText('Enabled').waitFor();
    expect(await row.innerText()).toContain('licenses.revoke');
    await row.getByRole('link', { name: receiver.url }).click();
    await admin.getByTestId('endpoint-url').waitFor();
    expect(await admin.getByTestId('webhook-secret').count()).toBe(0);
    expect(await admin.content()).not.toContain(secret);
  }, STEP);

  it('sends a test event: delivered with 200, signed with the secret shown', async () => {
    receiver.behave(answer(200, 'ok'));
    await openEndpoint(admin);
    await admin.getByText('No delivery attempts yet.').waitFor();
    await admin.getByRole('button', { name: 'Send test event' }).click();
    await admin.getByText(/Test event .* queued/).waitFor();
    const [request] = await receiver.waitFor(1, pings);
    expect(verify(request!, secret)).toMatchObject({ type: 'ping', data: { endpointId } });

    const eventId = request!.headers['webhook-id'] as string;
    const row = deliveryRows(admin, eventId);
    await row.getByText('Delivered').waitFor();
    expect(await row.getByTestId('response-status').innerText()).toBe('200');
    expect(await row.innerText()).toContain('ping');
  }, STEP);

  it('shows a failing attempt with its status and body, then redelivers it once the receiver answers 200', async () => {
    receiver.behave(answer(500, LONG_ERROR));
    await openEndpoint(admin);
    await admin.getByRole('button', { name: 'Send test event' }).click();
    const [failing] = await receiver.waitFor(1, (r) => pings(r) && r.answered === 500);
    const eventId = failing!.headers['webhook-id'] as string;
    const rows = deliveryRows(admin, eventId);
    await rows.first().getByTestId('response-status').getByText('500').waitFor();

    // One retry a second later, then given up.
    await rows.first().getByText('Failed').waitFor();
    expect(await rows.count()).toBe(2);
    // The first attempt scheduled a retry; the event has been given up since, and its row says so.
    expect(await rows.last().getByTestId('attempt-status').innerText()).toBe('Retried');
    expect(await rows.last().getByTestId('event-final-state').innerText()).toBe('event given up since');

    // The answer is cut in the table, whole on hover and when expanded.
    const summary = rows.first().locator('summary');
    expect(await summary.innerText()).toMatch(/^Internal error: the orders database .*…$/);
    expect(await summary.getAttribute('title')).toBe(LONG_ERROR);
    await summary.click();
    expect(await rows.first().locator('pre').innerText()).toBe(LONG_ERROR);

    receiver.behave(answer(200, 'ok'));
    await rows.first().getByRole('button', { name: /Redeliver/ }).click();
    await admin.getByText(`Event ${eventId} queued again.`).waitFor();
    await rows.getByTestId('attempt-status').getByText('Delivered', { exact: true }).waitFor();
    const delivered = rows.filter({ has: admin.getByTestId('attempt-status').getByText('Delivered', { exact: true }) });
    expect(await delivered.getByTestId('response-status').innerText()).toBe('200');
    const sent = receiver.received.filter((r) => r.headers['webhook-id'] === eventId);
    expect(sent.map((r) => r.answered)).toEqual([500, 500, 200]);
    expect(verify(sent[2]!, secret)).toMatchObject({ type: 'ping' });
  }, STEP);

  it('rotates the secret after asking: the new one is shown once and signs from then on, the old one beside it for 24 hours', async () => {
    await openEndpoint(admin);
    await admin.getByRole('button', { name: 'Rotate secret' }).click();
    const dialog = admin.getByRole('dialog');
    await dialog.getByText(/For 24 hours it also carries a signature made with the old one/).waitFor();
    await dialog.getByRole('button', { name: 'Rotate secret' }).click();
    await admin.getByText('Secret rotated').waitFor();
    const rotated = (await admin.getByTestId('webhook-secret').innerText()).trim();
    expect(rotated).toMatch(/^whsec_/);
    expect(rotated).not.toBe(secret);

    const before = receiver.received.filter(pings).length;
    await admin.getByRole('button', { name: 'Send test event' }).click();
    const request = (await receiver.waitFor(before + 1, pings))[before];
    expect(verify(request!, rotated)).toMatchObject({ type: 'ping' });
    expect(verify(request!, secret)).toMatchObject({ type: 'ping' }); // the receiver has not been told yet

    await admin.reload();
    await admin.getByTestId('endpoint-url').waitFor();
    expect(await admin.getByTestId('webhook-secret').count()).toBe(0);
  }, STEP);

  it('edits the endpoint: all events, disabled', async () => {
    await openEndpoint(admin);
    await admin.getByLabel('All events').check();
    await admin.getByLabel('Enabled').uncheck();
    await admin.getByRole('button', { name: 'Save endpoint' }).click();
    await admin.getByText('Endpoint saved.').waitFor();
    await admin.getByTestId('endpoint-state').getByText('Disabled').waitFor();
    expect((await t.admin('GET', `/webhook-endpoints/${endpointId}`)).json).toMatchObject({ events: ['*'], enabled: false, description: 'Shop fulfilment' });

    await admin.getByLabel('Enabled').check();
    await admin.getByRole('button', { name: 'Save endpoint' }).click();
    await admin.getByTestId('endpoint-state').getByText('Enabled').waitFor();
  }, STEP);

  it('shows a read-only account the endpoints and their deliveries, without write controls', async () => {
    const reader = await staffWith(t, ['webhooks:read']);
    const page = await openPage(browser);
    await signIn(page, t.baseUrl, reader.username, reader.password);
    await navLink(page, 'Webhooks').click();
    await page.getByTestId('webhook-endpoint-row').waitFor();
    expect(await page.getByRole('link', { name: 'New endpoint' }).count()).toBe(0);

    await openEndpoint(page);
    await page.getByTestId('delivery-row').first().waitFor();
    await page.getByRole('button', { name: 'Refresh' }).waitFor();
    for (const name of ['Send test event', 'Rotate secret', 'Delete', 'Save endpoint', 'Redeliver']) {
      expect(await page.getByRole('button', { name }).count(), name).toBe(0);
    }
    expect(await page.getByRole('columnheader', { name: 'Actions' }).count()).toBe(0);

    await page.goto(`${t.baseUrl}/portal/webhooks/new`);
    await page.getByText('it needs the permission webhooks:write').waitFor();
    await page.context().close();
  }, STEP);

  it('fits a laptop and a phone screen (390 px): no sideways scrolling', async () => {
    const problems: string[] = [];
    for (const [size, viewport] of [['laptop', LAPTOP], ['phone', PHONE]] as const) {
      const page = await openPage(browser, viewport);
      await signIn(page, t.baseUrl, ADMIN.username, ADMIN.password);
      const pages: [string, string][] = [['webhooks', '/portal/webhooks'], ['webhook', `/portal/webhooks/${endpointId}`], ['webhook-new', '/portal/webhooks/new']];
      for (const [name, path] of pages) {
        await page.goto(`${t.baseUrl}${path}`);
        await page.getByRole('heading', { level: 1 }).waitFor();
        await page.waitForLoadState('networkidle');
        if (name === 'webhook') await page.getByTestId('delivery-row').first().waitFor();
        if (name === 'webhook-new') await page.getByRole('group', { name: 'Licenses' }).waitFor();
        const facts = await layoutFacts(page);
        if (facts.scrollWidth > viewport.width) problems.push(`${size} ${name}: ${facts.scrollWidth}px wide on a ${viewport.width}px screen`);
        await pageScreenshot(page, size, name);
      }
      // The secret, one long word, wraps inside its notice.
      await page.getByLabel('URL').fill(`${receiver.url}/phone`);
      await page.getByLabel('All events').check();
      await page.getByRole('button', { name: 'Create endpoint' }).click();
      await page.getByTestId('webhook-secret').waitFor();
      const facts = await layoutFacts(page);
      if (facts.scrollWidth > viewport.width) problems.push(`${size} webhook-created: ${facts.scrollWidth}px wide on a ${viewport.width}px screen`);
      await pageScreenshot(page, size, 'webhook-created');
      const created = ((await t.admin('GET', '/webhook-endpoints')).json as { id: string; url: string }[]).find((e) => e.url === `${receiver.url}/phone`);
      expect((await t.admin('DELETE', `/webhook-endpoints/${created!.id}`)).status).toBe(204);
      await page.context().close();
    }
    expect(problems).toEqual([]);
  }, STEP);

  it('deletes the endpoint after asking', async () => {
    await openEndpoint(admin);
    await admin.getByRole('button', { name: 'Delete' }).click();
    await admin.getByRole('dialog').getByText(/delivery log are deleted/).waitFor();
    await admin.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
    await admin.getByText('No webhook endpoints yet.').waitFor();
    expect((await t.admin('GET', `/webhook-endpoints/${endpointId}`)).status).toBe(404);
  }, STEP);

  it('raised no uncaught error in the browser', () => {
    expect(pageErrors).toEqual([]);
  });
});
