// GET /actions shows no more than its reader may read directly (DECISIONS.md "Safe by
// default"): keys cut to 5 characters without licenses:read, customers as ids without
// customers:read, and the token of a Discord webhook URL to no one.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCustomer, createOrder, createProduct, newLicense, staffWith, uniq, type StaffAccount } from '../../../test/helpers/fixtures.js';
import { DIALECTS, startTestApp, type TestApp } from '../../../test/helpers/test-app.js';
import { eventOfAudit } from '../events/events.js';
import { withoutDiscordTokens } from '../../lib/discord-webhook-url.js';
import { redactAuditData } from './audit.redaction.js';

type Entry = { name: string; data: string };
const DISCORD_TOKEN = 'Zx9-token_ABCDEFGHJKMNPQRSTVWX0123456789abcdefghij';
const laterGroups = (key: string) => [key.slice(6, 11), key.slice(12, 17), key.slice(18, 23), key.slice(24)];

describe('audit data redaction (unit)', () => {
  const data = JSON.stringify({ id: 'ABCDE-FGHJK-MNPQR-STVWX-YZ012', customerId: 'c1', licenseIds: ['LEGACY-KEY-123'] });

  it('cuts declared keys whatever their shape, and key-shaped text anywhere', () => {
    const shown = JSON.parse(redactAuditData('orders.create', data, { licenses: false, customers: true }));
    expect(shown).toEqual({ id: 'ABCDE…', customerId: 'c1', licenseIds: ['LEGAC…'] });
  });

  it('leaves the data as stored for a reader of everything, but for Discord tokens', () => {
    expect(redactAuditData('orders.create', data, { licenses: true, customers: true })).toBe(data);
    const url = `https://discord.com/api/webhooks/123456789/${DISCORD_TOKEN}`;
    expect(withoutDiscordTokens(`{"url":"${url}"}`)).toBe('{"url":"https://discord.com/api/webhooks/123456789/…"}');
    expect(withoutDiscordTokens(`see https://canary.discordapp.com/api/v10/webhooks/1/${DISCORD_TOKEN}/slack?wait=true`))
      .toBe('see https://canary.discordapp.com/api/v10/webhooks/1/…?wait=true');
  });

  it('leaves the token out of the outbound event of an audited change too', () => {
    const data = JSON.stringify({ url: `https://discord.com/api/webhooks/1/${DISCORD_TOKEN}` });
    const event = eventOfAudit({ id: 'e1', name: 'webhookEndpoint.create', performed_by: 'root', timestamp: 0, data });
    expect(event.body).not.toContain(DISCORD_TOKEN);
    expect(JSON.parse(event.body).data.url).toBe('https://discord.com/api/webhooks/1/…');
  });

  it('keeps data that is not JSON readable, with keys still cut', () => {
    expect(redactAuditData('x', 'not json ABCDE-FGHJK-MNPQR-STVWX-YZ012', { licenses: false, customers: false })).toBe('not json ABCDE…');
  });
});

describe.each(DIALECTS)('GET /actions by what the reader may read (%s)', (dialect) => {
  let t: TestApp;
  let key: string;
  let customer: Awaited<ReturnType<typeof createCustomer>>;
  let marketplaceKey: string;
  const readers: Record<string, StaffAccount> = {};

  /** Every entry the account may list, and the raw body they came in. */
  async function entriesOf(account: StaffAccount | null): Promise<{ raw: string; entries: Entry[] }> {
    const res = account ? await t.req('GET', '/actions?limit=1000', { token: account.token }) : await t.admin('GET', '/actions?limit=1000');
    expect(res.status).toBe(200);
    return { raw: res.text, entries: res.json };
  }
  const dataOf = (entries: Entry[], name: string) => entries.filter((e) => e.name === name).map((e) => JSON.parse(e.data));

  beforeAll(async () => {
    t = await startTestApp(dialect, { WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true' });
    customer = await createCustomer(t, { note: uniq('private-note'), socials: { twitter: uniq('handle') } });
    const product = await createProduct(t, { marketplaceResourceId: uniq('res') });
    const license = await newLicense(t, { customerId: customer.id, productId: product.id });
    key = license.id;
    expect((await t.admin('POST', `/licenses/${key}/revoke`, { body: { reason: `refund of ${key.toLowerCase()}` } })).status).toBe(200);
    await createOrder(t, { customerId: customer.id, licenseIds: [key] });
    const rule = await t.admin('POST', '/blocklist', { body: { type: 'hwid', value: uniq('hw'), licenseId: key, note: `leaked ${key.replaceAll('-', '')}` } });
    expect(rule.status, rule.text).toBe(201);
    const sale = await t.req('POST', '/marketplace', { form: { secret: 'test-marketplace-secret', user_id: '8675309', resource_id: product.marketplaceResourceId! } });
    expect(sale.status, sale.text).toBe(200);
    marketplaceKey = sale.text.trim();
    const endpoint = await t.admin('POST', '/webhook-endpoints', {
      body: { url: `https://discord.com/api/webhooks/123456789/${DISCORD_TOKEN}`, events: ['customers.create'], format: 'discord', enabled: false },
    });
    expect(endpoint.status, endpoint.text).toBe(201);
    const put = await t.admin('PUT', `/webhook-endpoints/${endpoint.json.id}`, {
      body: { url: `https://discord.com/api/webhooks/123456789/${DISCORD_TOKEN}`, events: ['*'], format: 'discord', enabled: false },
    });
    expect(put.status, put.text).toBe(200);
    expect((await t.admin('POST', `/webhook-endpoints/${endpoint.json.id}/rotate-secret`)).status).toBe(200);
    readers.actionsOnly = await staffWith(t, ['actions:read']);
    readers.licenses = await staffWith(t, ['actions:read', 'licenses:read']);
    readers.customers = await staffWith(t, ['actions:read', 'customers:read']);
  });
  afterAll(() => t.close());

  it('shows a reader with only actions:read keys cut to 5 characters, wherever they sit', async () => {
    const { raw, entries } = await entriesOf(readers.actionsOnly!);
    for (const k of [key, marketplaceKey]) {
      const readable = raw.toLowerCase();
      for (const group of laterGroups(k)) expect(readable).not.toContain(group.toLowerCase());
    }
    const cut = `${key.slice(0, 5)}…`;
    expect(dataOf(entries, 'licenses.create').find((d) => d.customerId === customer.id).id).toBe(cut);
    expect(dataOf(entries, 'licenses.revoke')[0]).toMatchObject({ licenseId: cut, reason: `refund of ${cut.toLowerCase()}` });
    expect(dataOf(entries, 'orders.create').find((d) => d.customerId === customer.id).licenseIds).toEqual([cut]);
    expect(dataOf(entries, 'blocklist.create')[0]).toMatchObject({ licenseId: cut, note: `leaked ${cut}` });
    expect(dataOf(entries, 'marketplace.license.create')[0].id).toBe(`${marketplaceKey.slice(0, 5)}…`);
  });

  it('shows a reader with only actions:read customers as their ids, and no buyer identity', async () => {
    const { raw, entries } = await entriesOf(readers.actionsOnly!);
    for (const secret of [customer.name, customer.email, customer.note!, customer.socials.twitter!, '8675309']) expect(raw).not.toContain(secret);
    expect(dataOf(entries, 'customers.create')).toContainEqual({ id: customer.id });
    expect(dataOf(entries, 'customers.create').every((d) => Object.keys(d).every((k) => ['id', 'marketplace'].includes(k)))).toBe(true);
    const sale = dataOf(entries, 'marketplace.license.create')[0];
    expect(sale.marketplace).toEqual({ resource_id: expect.any(String), version_id: null, version_number: null });
    expect(sale.customerId).toEqual(expect.any(String));
  });

  it('shows keys whole to licenses:read, customers whole to customers:read, and everything to the Master Admin', async () => {
    const withLicenses = await entriesOf(readers.licenses!);
    expect(withLicenses.raw).toContain(key);
    expect(withLicenses.raw).toContain(`refund of ${key.toLowerCase()}`);
    expect(withLicenses.raw).not.toContain(customer.email);
    const withCustomers = await entriesOf(readers.customers!);
    expect(withCustomers.raw).toContain(customer.email);
    expect(dataOf(withCustomers.entries, 'customers.create')).toContainEqual(expect.objectContaining({ id: customer.id, note: customer.note }));
    expect(dataOf(withCustomers.entries, 'marketplace.license.create')[0].marketplace.user_id).toBe('8675309');
    expect(withCustomers.raw).not.toContain(key.slice(6, 11));
    const admin = await entriesOf(null);
    for (const whole of [key, marketplaceKey, customer.email, customer.note!, '8675309']) expect(admin.raw).toContain(whole);
  });

  it('shows the token of a Discord webhook URL to no one', async () => {
    for (const account of [readers.actionsOnly!, readers.licenses!, readers.customers!, null]) {
      const { raw, entries } = await entriesOf(account);
      expect(raw).not.toContain(DISCORD_TOKEN.slice(4));
      const urls = ['webhookEndpoint.create', 'webhookEndpoint.update', 'webhookEndpoint.rotateSecret'].map((name) => dataOf(entries, name)[0].url);
      expect(urls).toEqual(Array(3).fill('https://discord.com/api/webhooks/123456789/…'));
    }
  });

  it('shows the Discord token of an endpoint to those who may change it, not to those who may only read it', async () => {
    const reader = await staffWith(t, ['webhooks:read']);
    const writer = await staffWith(t, ['webhooks:read', 'webhooks:write']);
    const list = await t.req('GET', '/webhook-endpoints', { token: reader.token });
    expect(list.status).toBe(200);
    expect(list.text).not.toContain(DISCORD_TOKEN.slice(4));
    const [endpoint] = list.json;
    expect(endpoint.url).toBe('https://discord.com/api/webhooks/123456789/…');
    expect((await t.req('GET', `/webhook-endpoints/${endpoint.id}`, { token: reader.token })).json.url).toBe(endpoint.url);
    expect((await t.req('GET', `/webhook-endpoints/${endpoint.id}`, { token: writer.token })).json.url).toContain(DISCORD_TOKEN);
  });
});
