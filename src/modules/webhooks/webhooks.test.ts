// Outbound webhooks end to end (DECISIONS.md "Outbound webhooks"): endpoints over the API,
// events queued in the change's transaction, delivered by the worker to a real receiver,
// signed so that the standardwebhooks package verifies them, retried, redelivered, logged.
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEntries, createCustomer, newLicense, staffWith, validate } from '../../../test/helpers/fixtures.js';
import { DIALECTS, startTestApp, type TestApp } from '../../../test/helpers/test-app.js';
import { answer, eventOf, startReceiver, type Receiver } from '../../../test/helpers/webhook-receiver.js';
import { announceExpiring } from '../licenses/expiry-notices.js';
import { useTestClock } from '../../../test/helpers/clock.js';
import { until } from '../../../test/helpers/until.js';

describe.each(DIALECTS)('outbound webhooks (%s)', (dialect) => {
  let t: TestApp;
  let receiver: Receiver;
  beforeAll(async () => {
    t = await startTestApp(dialect, {
      WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
      WEBHOOK_RETRY_SCHEDULE_SECONDS: '1,1',
      VALIDATION_RATE_LIMIT: '100000',
    });
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await receiver?.close();
    await t?.close();
  });

  const createEndpoint = async (body: Record<string, unknown>) => {
    const res = await t.admin('POST', '/webhook-endpoints', { body: { url: receiver.url, ...body } });
    expect(res.status, res.text).toBe(201);
    return res.json as { id: string; secret: string; events: string[] };
  };
  const remove = (id: string) => t.admin('DELETE', `/webhook-endpoints/${id}`);
  const deliveries = async (id: string) => (await t.admin('GET', `/webhook-endpoints/${id}/deliveries`)).json as Record<string, unknown>[];
  const forEndpoint = (id: string) => (r: { headers: Record<string, unknown>; body: string }) => {
    try {
      return (eventOf(r as never).data as { endpointId?: string }).endpointId === id || r.headers['x-endpoint'] === id;
    } catch {
      return false;
    }
  };

  it('creates, reads, lists, replaces, rotates and deletes endpoints; the secret only at creation and rotation, never audited', async () => {
    const created = await createEndpoint({ events: ['licenses.create', 'licenses.create', 'customers.update'], description: 'shop' });
    expect(created).toMatchObject({ url: receiver.url, events: ['customers.update', 'licenses.create'], format: 'standard', enabled: true, description: 'shop' });
    expect(created.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(created.secret.slice(6), 'base64')).toHaveLength(32);

    const read = await t.admin('GET', `/webhook-endpoints/${created.id}`);
    expect(read.status).toBe(200);
    expect(read.json).not.toHaveProperty('secret');
    expect(((await t.admin('GET', '/webhook-endpoints')).json as { id: string }[]).map((e) => e.id)).toContain(created.id);

    const put = await t.admin('PUT', `/webhook-endpoints/${created.id}`, { body: { url: receiver.url, events: ['*'], format: 'discord', enabled: false } });
    expect(put.json).toMatchObject({ events: ['*'], format: 'discord', enabled: false, description: null });
    expect(put.json).not.toHaveProperty('secret');

    const rotated = await t.admin('POST', `/webhook-endpoints/${created.id}/rotate-secret`);
    expect(rotated.status).toBe(200);
    expect((rotated.json as { secret: string }).secret).toMatch(/^whsec_/);
    expect((rotated.json as { secret: string }).secret).not.toBe(created.secret);

    expect((await remove(created.id)).status).toBe(204);
    expect((await t.admin('GET', `/webhook-endpoints/${created.id}`)).status).toBe(404);

    const audit = await auditEntries(t);
    const mine = audit.filter((e) => e.name.startsWith('webhookEndpoint.') && e.data.includes(created.id));
    expect(mine.map((e) => e.name).sort()).toEqual(['webhookEndpoint.create', 'webhookEndpoint.delete', 'webhookEndpoint.rotateSecret', 'webhookEndpoint.update']);
    for (const entry of mine) {
      expect(entry.data).not.toContain(created.secret.slice(6));
      expect(entry.data).not.toContain((rotated.json as { secret: string }).secret.slice(6));
    }
  });

  it('refuses bad input with a 400 naming the problem, writing nothing', async () => {
    const before = (await auditEntries(t)).length;
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ url: 'ftp://example.com/x', events: ['*'] }, /url must use http or https/],
      [{ url: 'not a url', events: ['*'] }, /url must be an absolute/],
      [{ url: 'https://user:pw@example.com/', events: ['*'] }, /credentials/],
      [{ url: receiver.url, events: ['licenses.nonsense'] }, /events: unknown event type "licenses.nonsense"/],
      [{ url: receiver.url, events: [] }, /events/],
      [{ url: receiver.url, events: ['ping'] }, /unknown event type "ping"/],
      [{ url: receiver.url, events: ['*'], format: 'slack' }, /format/],
      [{ url: receiver.url }, /events/],
      [{ url: 42, events: ['*'] }, /url/],
    ];
    for (const [body, error] of cases) {
      const res = await t.admin('POST', '/webhook-endpoints', { body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect((res.json as { error: string }).error).toMatch(error);
    }
    expect((await t.admin('PUT', '/webhook-endpoints/nope', { body: { url: receiver.url, events: ['*'] } })).status).toBe(404);
    for (const path of ['/webhook-endpoints/nope/rotate-secret', '/webhook-endpoints/nope/test', '/webhook-endpoints/nope/deliveries/x/redeliver']) {
      expect((await t.admin('POST', path)).status).toBe(404);
    }
    expect((await auditEntries(t)).length).toBe(before);
  });

  it('needs webhooks:read to read and webhooks:write to change', async () => {
    const reader = await staffWith(t, ['webhooks:read']);
    const writer = await staffWith(t, ['webhooks:write']);
    expect((await t.req('GET', '/webhook-endpoints', { token: reader.token })).status).toBe(200);
    expect((await t.req('POST', '/webhook-endpoints', { token: reader.token, body: { url: receiver.url, events: ['*'] } })).status).toBe(403);
    expect((await t.req('GET', '/webhook-endpoints', { token: writer.token })).status).toBe(403);
    const created = await t.req('POST', '/webhook-endpoints', { token: writer.token, body: { url: receiver.url, events: ['orders.create'] } });
    expect(created.status).toBe(201);
    await remove((created.json as { id: string }).id);
  });

  it('delivers a subscribed change, signed (standardwebhooks verifies it), with the audit entry as its id and data', async () => {
    const endpoint = await createEndpoint({ events: ['licenses.create'] });
    receiver.behave(answer(200, 'ok'));
    const license = await newLicense(t);
    const [request] = await receiver.waitFor(1, (r) => r.body.includes(license.id) && eventOf(r).type === 'licenses.create');
    const headers = request!.headers as Record<string, string>;
    const verified = new Webhook(endpoint.secret).verify(request!.body, headers) as { type: string; data: { id: string } };
    expect(verified.type).toBe('licenses.create');
    expect(verified.data.id).toBe(license.id);
    expect(verified.data).not.toHaveProperty('validationAttempts');
    expect(Math.abs(Number(headers['webhook-timestamp']) - Date.now() / 1000)).toBeLessThan(30);
    const entry = (await auditEntries(t, 'licenses.create')).find((e) => e.data.includes(license.id))!;
    expect(headers['webhook-id']).toBe(entry.id);
    expect(eventOf(request!).timestamp).toBe(new Date(entry.timestampEpochMillis).toISOString());
    // Another secret does not verify it.
    expect(() => new Webhook(`whsec_${Buffer.alloc(32, 1).toString('base64')}`).verify(request!.body, headers)).toThrow();

    const log = await until('the delivery logged', () => deliveries(endpoint.id), (rows) => rows.length > 0);
    expect(log[0]).toMatchObject({ eventId: entry.id, type: 'licenses.create', attempt: 1, status: 'delivered', responseStatus: 200, responseBody: 'ok' });
    expect(log[0]!.durationMs).toEqual(expect.any(Number));
    await remove(endpoint.id);
  });

  it('after a rotation signs with the new secret and, for 24 hours, the old one too; then with the new one only', async () => {
    const endpoint = await createEndpoint({ events: ['customers.create'] });
    receiver.behave(answer(204));
    const rotated = (await t.admin('POST', `/webhook-endpoints/${endpoint.id}/rotate-secret`)).json as { secret: string };
    const during = await createCustomer(t);
    const [first] = await receiver.waitFor(1, (r) => r.body.includes(during.id));
    const headers = first!.headers as Record<string, string>;
    expect(headers['webhook-signature']!.split(' ')).toHaveLength(2);
    expect(new Webhook(rotated.secret).verify(first!.body, headers)).toMatchObject({ type: 'customers.create' });
    expect(new Webhook(endpoint.secret).verify(first!.body, headers)).toMatchObject({ type: 'customers.create' });

    // The overlap over (as 24 hours later): the old secret no longer signs.
    await t.app.db.updateTable('webhook_endpoints').set({ previous_secret_until: Date.now() - 1 }).where('id', '=', endpoint.id).execute();
    const after = await createCustomer(t);
    const [second] = await receiver.waitFor(1, (r) => r.body.includes(after.id));
    const laterHeaders = second!.headers as Record<string, string>;
    expect(laterHeaders['webhook-signature']!.split(' ')).toHaveLength(1);
    expect(new Webhook(rotated.secret).verify(second!.body, laterHeaders)).toMatchObject({ type: 'customers.create' });
    expect(() => new Webhook(endpoint.secret).verify(second!.body, laterHeaders)).toThrow();
    await remove(endpoint.id);
  });

  it('queues an event only for enabled endpoints subscribed to its type', async () => {
    const other = await createEndpoint({ events: ['orders.create'] });
    const disabled = await createEndpoint({ events: ['*'], enabled: false });
    const customer = await createCustomer(t);
    const queued = await t.app.db.selectFrom('webhook_outbox').select(['endpoint_id', 'type']).where('body', 'like', `%${customer.id}%`).execute();
    expect(queued).toEqual([]);
    await remove(other.id);
    await remove(disabled.id);
  });

  it('retries a failed delivery on the schedule with the same webhook-id, then gives up (failed)', async () => {
    const endpoint = await createEndpoint({ events: ['customers.create'] });
    let calls = 0;
    receiver.behave((r, response) => {
      calls++;
      response.writeHead(calls === 1 ? 500 : 200).end(calls === 1 ? 'boom' : '');
    });
    const customer = await createCustomer(t);
    const requests = await receiver.waitFor(2, (r) => r.body.includes(customer.id));
    expect(new Set(requests.map((r) => r.headers['webhook-id'])).size).toBe(1);
    const log = await until('both attempts logged', () => deliveries(endpoint.id), (rows) => rows.length === 2);
    expect(log.map((d) => [d.attempt, d.status, d.responseStatus])).toEqual([
      [2, 'delivered', 200],
      [1, 'pending', 500],
    ]);
    expect(log[1]!.responseBody).toBe('boom');

    receiver.behave(answer(503));
    const second = await createCustomer(t);
    await receiver.waitFor(3, (r) => r.body.includes(second.id)); // first attempt and two retries
    const failed = await until('an attempt logged as failed', () => deliveries(endpoint.id), (rows) => rows.some((d) => d.status === 'failed'));
    expect(failed[0]).toMatchObject({ attempt: 3, status: 'failed', responseStatus: 503 });
    const state = await t.app.db.selectFrom('webhook_outbox').select('status').where('body', 'like', `%${second.id}%`).executeTakeFirstOrThrow();
    expect(state.status).toBe('failed');
    expect((await t.admin('GET', `/webhook-endpoints/${endpoint.id}`)).json).toMatchObject({ failingSinceEpochMillis: expect.any(Number) });

    // Redeliver: the same event again, due at once, with a fresh schedule.
    receiver.behave(answer(200));
    const eventId = failed[0]!.eventId as string;
    const again = await t.admin('POST', `/webhook-endpoints/${endpoint.id}/deliveries/${eventId}/redeliver`);
    expect(again).toMatchObject({ status: 202, json: { eventId, status: 'pending' } });
    await receiver.waitFor(4, (r) => r.body.includes(second.id));
    const after = await until('the redelivery logged', () => deliveries(endpoint.id), (rows) => rows[0]?.status === 'delivered' && rows[0]?.eventId === eventId);
    expect(after[0]).toMatchObject({ attempt: 1, responseStatus: 200 });
    expect((await t.admin('GET', `/webhook-endpoints/${endpoint.id}`)).json).toMatchObject({ failingSinceEpochMillis: null });
    expect((await t.admin('POST', `/webhook-endpoints/${endpoint.id}/deliveries/not-an-event/redeliver`)).status).toBe(404);
    await remove(endpoint.id);
  });

  it('sends a test ping to one endpoint whatever it subscribes to; 409 while disabled', async () => {
    const endpoint = await createEndpoint({ events: ['orders.delete'] });
    receiver.behave(answer(200));
    const ping = await t.admin('POST', `/webhook-endpoints/${endpoint.id}/test`);
    expect(ping.status).toBe(202);
    const [request] = await receiver.waitFor(1, (r) => r.headers['webhook-id'] === (ping.json as { eventId: string }).eventId);
    expect(eventOf(request!)).toMatchObject({ type: 'ping', data: { endpointId: endpoint.id } });
    await t.admin('PUT', `/webhook-endpoints/${endpoint.id}`, { body: { url: receiver.url, events: ['orders.delete'], enabled: false } });
    expect(await t.admin('POST', `/webhook-endpoints/${endpoint.id}/test`)).toMatchObject({ status: 409, json: { error: expect.stringMatching(/disabled/) } });
    await remove(endpoint.id);
  });

  it('sends validation and slot-bind events only while subscribed; with no subscriber a validation queues nothing', async () => {
    const license = await newLicense(t, { maxHwids: 1 });
    const args = { licenseId: license.id, productId: license.productId, hwid: 'HW-1' };
    await validate(t, args);
    const count = async () =>
      Number((await t.app.db.selectFrom('webhook_outbox').select((eb) => eb.fn.countAll().as('n')).where('body', 'like', `%${license.id}%`).executeTakeFirstOrThrow()).n);
    expect(await count()).toBe(0);

    const endpoint = await createEndpoint({ events: ['licenses.validate.succeeded', 'licenses.validate.failed', 'licenses.slot.bind'] });
    receiver.behave(answer(200));
    await validate(t, { ...args, hwid: 'HW-2' }); // refused: the one HWID slot is taken
    const fresh = await newLicense(t);
    await validate(t, { licenseId: fresh.id, productId: fresh.productId, hwid: 'HW-3' }); // binds an IP and an HWID
    const got = await receiver.waitFor(4, (r) => r.body.includes(license.id) || r.body.includes(fresh.id));
    const events = got.map(eventOf);
    expect(events.find((e) => e.type === 'licenses.validate.failed')!.data).toEqual({
      licenseId: license.id,
      productId: license.productId,
      hwid: 'HW-2',
      ip: '127.0.0.1',
      valid: false,
      reason: 'HWID_LIMIT_REACHED',
      timestampEpochMillis: expect.any(Number),
    });
    expect(events.find((e) => e.type === 'licenses.validate.succeeded')!.data).toMatchObject({ licenseId: fresh.id, valid: true, reason: 'VALID' });
    expect(events.filter((e) => e.type === 'licenses.slot.bind').map((e) => [e.data.kind, e.data.value]).sort()).toEqual([
      ['hwid', 'HW-3'],
      ['ip', '127.0.0.1'],
    ]);
    await remove(endpoint.id);
  });

  it('announces a license expiring within 7 days once per expiry', async () => {
    const endpoint = await createEndpoint({ events: ['licenses.expiring'] });
    receiver.behave(answer(200));
    const soon = await newLicense(t, { expiresAtEpochMillis: Date.now() + 3 * 86_400_000 });
    const later = await newLicense(t, { expiresAtEpochMillis: Date.now() + 30 * 86_400_000 });
    await announceExpiring(t.app.storage);
    await announceExpiring(t.app.storage); // the same expiry: nothing new
    const got = await receiver.waitFor(1, (r) => eventOf(r).type === 'licenses.expiring' && r.body.includes(soon.id));
    expect(eventOf(got[0]!).data).toMatchObject({ id: soon.id, expiresAtEpochMillis: soon.expiresAtEpochMillis });
    // Queued once (what is queued is what is sent): no need to wait for a second delivery.
    const queued = (licenseId: string) =>
      t.app.db.selectFrom('webhook_outbox').select('id').where('endpoint_id', '=', endpoint.id).where('type', '=', 'licenses.expiring').where('body', 'like', `%${licenseId}%`).execute();
    expect(await queued(soon.id)).toHaveLength(1);
    expect(await queued(later.id)).toHaveLength(0);
    // 24 days on, the later one is within its 7 days: the next scan announces it.
    useTestClock().advance(24 * 86_400_000);
    await announceExpiring(t.app.storage);
    expect(await queued(later.id)).toHaveLength(1);
    await remove(endpoint.id);
  });

  it('disables an endpoint that has failed for 5 days, audited', async () => {
    const endpoint = await createEndpoint({ events: ['customers.create'] });
    await t.app.db.updateTable('webhook_endpoints').set({ failing_since: Date.now() - 5 * 86_400_000 - 1000 }).where('id', '=', endpoint.id).execute();
    receiver.behave(answer(500));
    const customer = await createCustomer(t);
    await receiver.waitFor(1, (r) => r.body.includes(customer.id));
    const disabled = await until(
      'the endpoint disabled',
      async () => (await t.admin('GET', `/webhook-endpoints/${endpoint.id}`)).json as { enabled: boolean; disabledReason: string | null },
      (e) => !e.enabled,
    );
    expect(disabled.disabledReason).toMatch(/5 days/);
    const entry = (await auditEntries(t, 'webhookEndpoint.disable')).find((e) => e.data.includes(endpoint.id));
    expect(entry).toMatchObject({ performedBy: 'webhook-delivery' });
    // Enabled again: a new count.
    const enabled = await t.admin('PUT', `/webhook-endpoints/${endpoint.id}`, { body: { url: receiver.url, events: ['customers.create'] } });
    expect(enabled.json).toMatchObject({ enabled: true, failingSinceEpochMillis: null, disabledReason: null });
    await remove(endpoint.id);
  });

  it('a receiver that hangs with a long backlog holds a few hands, not all: another endpoint is served meanwhile', async () => {
    const hanging = await startReceiver();
    hanging.behave(() => undefined); // never answers: each attempt lasts the whole 10 s deadline
    const stuck = (await t.admin('POST', '/webhook-endpoints', { body: { url: hanging.url, events: ['customers.create'] } })).json as { id: string };
    for (let i = 0; i < 30; i++) await createCustomer(t); // 30 events queued ahead of the healthy endpoint's
    await hanging.waitFor(4);
    const healthy = await createEndpoint({ events: ['customers.create'] });
    receiver.behave(answer(204));
    const customers = await Promise.all(Array.from({ length: 5 }, () => createCustomer(t)));
    const started = Date.now();
    await receiver.waitFor(5, (r) => customers.some((c) => r.body.includes(c.id)), 5000);
    expect(Date.now() - started).toBeLessThan(5000);
    expect(hanging.received.length).toBeLessThan(8); // at most 4 per claim and none while 4 are in flight
    await remove(stuck.id);
    await remove(healthy.id);
    await hanging.close(); // the attempts in flight end now, failed
  });

  it('formats discord endpoints as a Discord message, unsigned', async () => {
    const endpoint = await createEndpoint({ events: ['customers.create'], format: 'discord' });
    receiver.behave(answer(204));
    const customer = await createCustomer(t);
    const [request] = await receiver.waitFor(1, (r) => r.body.includes(customer.id));
    expect(request!.headers).not.toHaveProperty('webhook-signature');
    // A message for people (issue 28): the title in words, the customer by name, the type in the footer.
    const message = JSON.parse(request!.body) as { embeds: { title: string; fields: { name: string; value: string }[]; footer: { text: string } }[] };
    expect(message.embeds[0]!.title).toBe('New customer');
    expect(message.embeds[0]!.footer.text).toBe(`customers.create · ${customer.id}`);
    expect(message.embeds[0]!.fields).toContainEqual(expect.objectContaining({ name: 'Customer', value: customer.name }));
    await remove(endpoint.id);
  });
});

describe('webhook endpoint URLs without WEBHOOK_ALLOW_PRIVATE_NETWORKS', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp('sqlite');
  });
  afterAll(() => t?.close());

  it.each(['http://127.0.0.1:9/hook', 'http://localhost/hook', 'http://[::1]/hook', 'http://169.254.169.254/latest/meta-data', 'http://10.0.0.8/'])(
    '%s is refused with a 400 naming url',
    async (url) => {
      const res = await t.admin('POST', '/webhook-endpoints', { body: { url, events: ['*'] } });
      expect(res).toMatchObject({ status: 400, json: { error: expect.stringMatching(/^url /) } });
    },
  );

  it('a host that does not resolve is refused', async () => {
    const res = await t.admin('POST', '/webhook-endpoints', { body: { url: 'https://no-such-host.invalid/hook', events: ['*'] } });
    expect(res).toMatchObject({ status: 400, json: { error: expect.stringMatching(/does not resolve/) } });
    expect((await t.admin('GET', '/webhook-endpoints')).json).toEqual([]);
  });
});
