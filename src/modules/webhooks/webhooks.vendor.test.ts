// What a vendor following docs/webhooks.md meets, on both databases: a `licenses.create`
// subscriber hears of licenses a marketplace made; a new endpoint is not sent its own
// creation; the delivery log says what finally became of each event; Discord messages
// read as words, names and times.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCustomer, createProduct, uniq, validate } from '../../../test/helpers/fixtures.js';
import { DIALECTS, startTestApp, type TestApp } from '../../../test/helpers/test-app.js';
import { answer, eventOf, startReceiver, type Receiver } from '../../../test/helpers/webhook-receiver.js';
import { polymartSignature } from '../marketplace/polymart.signature.js';
import { until } from '../../../test/helpers/until.js';

const POLYMART_SECRET = 'test-polymart-secret';

describe.each(DIALECTS)('webhooks as a vendor meets them (%s)', (dialect) => {
  let t: TestApp;
  let receiver: Receiver;
  beforeAll(async () => {
    t = await startTestApp(dialect, {
      WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
      WEBHOOK_RETRY_SCHEDULE_SECONDS: '1,1',
      WEBHOOK_RATE_LIMIT: '100000',
      VALIDATION_RATE_LIMIT: '100000',
      POLYMART_WEBHOOK_SECRET: POLYMART_SECRET,
    });
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await receiver?.close();
    await t?.close();
  });

  const createEndpoint = async (body: Record<string, unknown>, url = receiver.url) => {
    const res = await t.admin('POST', '/webhook-endpoints', { body: { url, ...body } });
    expect(res.status, res.text).toBe(201);
    return res.json as { id: string; secret: string };
  };
  const remove = (id: string) => t.admin('DELETE', `/webhook-endpoints/${id}`);

  it('tells a licenses.create subscriber of licenses made by the marketplace webhook and by Polymart', async () => {
    const endpoint = await createEndpoint({ events: ['licenses.create'], description: uniq('shop') });
    receiver.behave(answer(200));
    const product = await createProduct(t, { marketplaceResourceId: uniq('res'), polymartProductId: uniq('pm') });

    const sold = await t.req('POST', '/marketplace', {
      form: { secret: 'test-marketplace-secret', user_id: uniq('u'), resource_id: product.marketplaceResourceId!, marketplace: 'true' },
    });
    expect(sold.status, sold.text).toBe(200);
    const builtByBitKey = sold.text.trim();
    const raw = JSON.stringify({
      event: 'product.user.purchase', time: Math.floor(Date.now() / 1000), nonce: uniq('nonce'),
      payload: { product: { id: product.polymartProductId }, user: { id: Date.now() % 1e9 } },
    });
    const polymart = await t.req('POST', '/integrations/polymart', {
      rawBody: raw, headers: { 'content-type': 'application/json', 'x-polymart-signature': polymartSignature(raw, POLYMART_SECRET) },
    });
    const polymartKey = polymart.json.licenseKey as string;

    for (const key of [builtByBitKey, polymartKey]) {
      const [request] = await receiver.waitFor(1, (r) => eventOf(r).type === 'licenses.create' && r.body.includes(key));
      expect(eventOf(request!).data, key).toMatchObject({ id: key, productId: product.id });
    }
    expect(eventOf((await receiver.waitFor(1, (r) => r.body.includes(polymartKey) && eventOf(r).type === 'licenses.create'))[0]!).data).toMatchObject({
      marketplace: 'polymart',
    });
    await remove(endpoint.id);
  });

  it("does not send a new endpoint subscribed to * its own creation; an existing one hears of it", async () => {
    const own = await startReceiver();
    const existing = await createEndpoint({ events: ['webhookEndpoint.create'] });
    receiver.behave(answer(200));
    const fresh = await createEndpoint({ events: ['*'] }, own.url);
    await receiver.waitFor(1, (r) => eventOf(r).type === 'webhookEndpoint.create' && r.body.includes(fresh.id));
    const customer = await createCustomer(t); // something later does reach it
    await own.waitFor(1, (r) => r.body.includes(customer.id));
    expect(own.received.filter((r) => r.body.includes(fresh.id) && eventOf(r).type === 'webhookEndpoint.create')).toEqual([]);
    const queued = await t.app.db.selectFrom('webhook_outbox').select('type').where('endpoint_id', '=', fresh.id).execute();
    expect(queued.map((r) => r.type)).not.toContain('webhookEndpoint.create');
    await remove(existing.id);
    await remove(fresh.id);
    await own.close();
  });

  it("shows each logged attempt with its event's final state: a retried attempt of a delivered event is not pending", async () => {
    const endpoint = await createEndpoint({ events: ['customers.create'] });
    let calls = 0;
    receiver.behave((_r, response) => {
      calls += 1;
      response.writeHead(calls === 1 ? 500 : 200).end();
    });
    const customer = await createCustomer(t);
    await receiver.waitFor(2, (r) => r.body.includes(customer.id));
    const log = await until(
      'both attempts logged',
      async () => (await t.admin('GET', `/webhook-endpoints/${endpoint.id}/deliveries`)).json as Record<string, unknown>[],
      (rows) => rows.length === 2,
    );
    expect(log.map((d) => [d.attempt, d.status, d.eventStatus])).toEqual([
      [2, 'delivered', 'delivered'],
      [1, 'pending', 'delivered'],
    ]);
    await remove(endpoint.id);
  });

  it('formats Discord messages for people: a title in words, names, the key, the device, a Discord timestamp, a colour', async () => {
    const endpoint = await createEndpoint({ events: ['licenses.validate.failed', 'customers.create'], format: 'discord' });
    receiver.behave(answer(204));
    const product = await createProduct(t, { name: 'SkyBlock Plus', maxHwids: 1 });
    const customer = await createCustomer(t, { name: 'Steve Builder' });
    const license = (await t.admin('POST', '/licenses', { body: { productId: product.id, customerId: customer.id } })).json as { id: string };
    await validate(t, { licenseId: license.id, productId: product.id, hwid: 'HW-A' });
    await validate(t, { licenseId: license.id, productId: product.id, hwid: 'HW-B' }); // refused: one HWID

    // This license's refusal: 'HW-B' alone also occurs in random license keys of earlier tests' events.
    const [refused] = await receiver.waitFor(1, (r) => r.body.includes(license.id) && r.body.includes('HW-B'));
    expect(refused!.headers).not.toHaveProperty('webhook-signature');
    const [embed] = (JSON.parse(refused!.body) as { embeds: { title: string; description: string; color: number; fields: { name: string; value: string }[]; footer: { text: string } }[] }).embeds;
    expect(embed!.title).toBe('License check refused');
    expect(embed!.description).toMatch(/^<t:\d+:f> \(<t:\d+:R>\)$/);
    expect(embed!.color).toBe(0xc62828);
    expect(embed!.footer.text).toBe('licenses.validate.failed');
    const fields = Object.fromEntries(embed!.fields.map((f) => [f.name, f.value]));
    expect(fields).toMatchObject({
      'License key': `\`${license.id}\``,
      Product: 'SkyBlock Plus',
      Customer: 'Steve Builder',
      HWID: 'HW-B',
      IP: '127.0.0.1',
      Reason: 'HWID (device) limit reached',
    });
    // No raw dumps: no JSON text, no epoch strings.
    expect(embed!.fields.every((f) => !f.value.startsWith('{') && !/^\d{12,}$/.test(f.value))).toBe(true);

    const [created] = await receiver.waitFor(1, (r) => r.body.includes('Steve Builder') && r.body.includes('New customer'));
    const createdEmbed = (JSON.parse(created!.body) as { embeds: { color: number; fields: { name: string; value: string }[] }[] }).embeds[0]!;
    expect(createdEmbed.color).toBe(0x2e7d32);
    expect(createdEmbed.fields).toContainEqual(expect.objectContaining({ name: 'Customer', value: 'Steve Builder' }));
    await remove(endpoint.id);
  });
});
