import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createCustomer, createOrder, createProduct, customerBody, insertLicenseRow, staffWith, uniq,
} from '../../../test/helpers/fixtures.js';
import { auditEntryFor, expectRejected as expectRejectedAt, newestAuditId as newestAuditIdOf } from '../../../test/helpers/assertions.js';
import { expectPermissionMapping } from '../../../test/helpers/permissions.js';
import { DIALECTS, startTestApp, type TestApp } from '../../../test/helpers/test-app.js';

describe.each(DIALECTS)('customers (%s)', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(dialect);
  });
  afterAll(() => t.close());

  const newestAuditId = () => newestAuditIdOf(t);
  const entryFor = (name: string, id: string) => auditEntryFor(t, name, id);

  const expectRejected = (send: () => Promise<{ status: number; json: any }>, status: number, error: string | RegExp) =>
    expectRejectedAt(t, '/customers', send, status, error);

  it('creates, reads, lists, replaces and deletes a customer, auditing each change', async () => {
    const body = customerBody({ socials: { twitter: 'acme', linkedin: 'acme-inc', Discord: 'acme#1' }, note: 'VIP' });
    const created = await t.admin('POST', '/customers', { body });
    expect(created.status).toBe(201);
    const c = created.json;
    expect(c).toEqual({
      id: expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/),
      ...body,
      createdAtEpochMillis: expect.any(Number),
    });
    expect(Math.abs(c.createdAtEpochMillis - Date.now())).toBeLessThan(60_000);
    expect((await t.admin('GET', `/customers/${c.id}`)).json).toEqual(c);
    expect((await t.admin('GET', '/customers')).json).toContainEqual(c);

    const replacement = { name: 'Renamed', email: 'renamed@example.com', socials: { twitter: 'new' }, note: 'changed' };
    const put = await t.admin('PUT', `/customers/${c.id}`, { body: replacement });
    expect(put.status).toBe(200);
    expect(put.json).toEqual({ id: c.id, ...replacement, createdAtEpochMillis: c.createdAtEpochMillis });
    expect((await t.admin('GET', `/customers/${c.id}`)).json).toEqual(put.json);

    const del = await t.admin('DELETE', `/customers/${c.id}`);
    expect(del.status).toBe(204);
    expect(del.text).toBe('');
    expect((await t.admin('GET', `/customers/${c.id}`)).json).toEqual({ error: 'Customer not found' });

    for (const [name, snapshot] of [['customers.create', c], ['customers.update', put.json], ['customers.delete', put.json]]) {
      const entry = await entryFor(name, c.id);
      expect(entry?.performedBy, name).toBe('root');
      expect(JSON.parse(entry!.data), name).toEqual(snapshot);
    }
  });

  it('creates with only the required fields: socials {} and note null', async () => {
    const res = await t.admin('POST', '/customers', { body: { name: 'Min', email: 'min@localhost' } });
    expect(res.status).toBe(201);
    expect(res.json).toMatchObject({ name: 'Min', email: 'min@localhost', socials: {}, note: null });
  });

  it('PUT clears omitted socials and note, keeps id and createdAt, and requires name and email', async () => {
    const c = await createCustomer(t, { socials: { twitter: 'tw', MarketplaceID: uniq('m') }, note: 'secret' });
    const put = await t.admin('PUT', `/customers/${c.id}`, { body: { name: 'Bare', email: 'bare@example.com' } });
    expect(put.json).toEqual({ id: c.id, name: 'Bare', email: 'bare@example.com', socials: {}, note: null, createdAtEpochMillis: c.createdAtEpochMillis });
    // The cleared MarketplaceID is free for another customer again.
    await createCustomer(t, { socials: { MarketplaceID: c.socials.MarketplaceID } });

    await expectRejected(() => t.admin('PUT', `/customers/${c.id}`, { body: { email: 'x@example.com' } }), 400, 'name is required');
    await expectRejected(() => t.admin('PUT', `/customers/${c.id}`, { body: { name: 'x' } }), 400, 'email is required');
    const withNull = await t.admin('PUT', `/customers/${c.id}`, { body: { name: 'N', email: 'n@example.com', note: null } });
    expect(withNull.json.note).toBeNull();
  });

  it('rejects invalid bodies with a 400 naming the field, writing nothing', async () => {
    const post = (body: unknown) => () => t.admin('POST', '/customers', { body });
    await expectRejected(post({ email: 'a@example.com' }), 400, 'name is required');
    await expectRejected(post({ name: 'No mail' }), 400, 'email is required');
    await expectRejected(post({ name: 5, email: 'a@example.com' }), 400, 'name must be string');
    await expectRejected(post({ name: '', email: 'a@example.com' }), 400, /^name /);
    await expectRejected(post({ name: 'x'.repeat(201), email: 'a@example.com' }), 400, /^name /);
    for (const email of ['not-an-address', 'a@', '@b', 'a b@c', 'a@b@c']) {
      await expectRejected(post({ name: 'Bad mail', email }), 400, /^email /);
    }
    await expectRejected(post(customerBody({ socials: 'acme' })), 400, /^socials /);
    await expectRejected(post(customerBody({ socials: ['acme'] })), 400, /^socials /);
    await expectRejected(post(customerBody({ socials: { twitter: 5 } })), 400, 'socials.twitter must be string');
    await expectRejected(post(customerBody({ socials: { custom: { nested: 'x' } } })), 400, 'socials.custom must be string');
    await expectRejected(post(customerBody({ note: 12 })), 400, /^note /);
    await expectRejected(post([]), 400, /^Request body/);
    await expectRejected(post(customerBody({ name: 'a\u0000b' })), 400, 'name must not contain NUL characters');
    await expectRejected(post(customerBody({ socials: { 'k\u0000': 'v' } })), 400, /^socials\.k.* must not contain NUL characters$/);
    await expectRejected(
      () => t.admin('POST', '/customers', { rawBody: '{"name":', headers: { 'content-type': 'application/json' } }),
      400,
      'Request body is not valid JSON',
    );
  });

  it('keeps socials.MarketplaceID unique: 409 on create, update and under a race', async () => {
    const marketplaceId = uniq('mp');
    const owner = await createCustomer(t, { socials: { MarketplaceID: marketplaceId, SteamID: '76561190000000000' } });
    const message = `socials.MarketplaceID ${marketplaceId} is already used by another customer`;
    await expectRejected(() => t.admin('POST', '/customers', { body: customerBody({ socials: { MarketplaceID: marketplaceId } }) }), 409, message);
    const other = await createCustomer(t);
    await expectRejected(
      () => t.admin('PUT', `/customers/${other.id}`, { body: customerBody({ socials: { MarketplaceID: marketplaceId } }) }),
      409,
      message,
    );
    // Re-saving the owner with its own id is fine.
    const again = await t.admin('PUT', `/customers/${owner.id}`, { body: customerBody({ socials: owner.socials }) });
    expect(again.status).toBe(200);

    const raced = uniq('race');
    const results = await Promise.all(
      Array.from({ length: 6 }, () => t.admin('POST', '/customers', { body: customerBody({ socials: { MarketplaceID: raced } }) })),
    );
    expect(results.map((r) => r.status).sort()).toEqual([201, 409, 409, 409, 409, 409]);
  });

  it('is 404 for unknown ids of any form', async () => {
    for (const id of ['0190f0f0-0000-7000-8000-000000000000', 'x'.repeat(3000), "1' OR '1'='1", '%_*', 'null', 'a\u0000b', '\u00e9\u{1F600}']) {
      for (const [method, body] of [['GET'], ['PUT', customerBody()], ['DELETE']] as const) {
        const res = await t.admin(method, `/customers/${encodeURIComponent(id)}`, { body });
        expect(res.status, `${method} ${id.slice(0, 20)}`).toBe(404);
        expect(res.json).toEqual({ error: 'Customer not found' });
      }
    }
  });

  it('refuses to delete a customer that licenses or orders reference, saying how many', async () => {
    const c = await createCustomer(t);
    const p = await createProduct(t);
    await insertLicenseRow(t, p.id, c.id);
    await insertLicenseRow(t, p.id, c.id);
    const order = await createOrder(t, { customerId: c.id, productIds: [p.id] });
    await expectRejected(() => t.admin('DELETE', `/customers/${c.id}`), 409, 'Customer is referenced by 2 licenses and 1 order');
    expect((await t.admin('GET', `/customers/${c.id}`)).status).toBe(200);

    await t.admin('DELETE', `/orders/${order.id}`);
    const [first] = await t.app.db.selectFrom('licenses').select('id').where('customer_id', '=', c.id).execute();
    await t.app.db.deleteFrom('licenses').where('id', '=', first!.id).execute();
    await expectRejected(() => t.admin('DELETE', `/customers/${c.id}`), 409, 'Customer is referenced by 1 license');
    await t.app.db.deleteFrom('licenses').where('customer_id', '=', c.id).execute();
    expect((await t.admin('DELETE', `/customers/${c.id}`)).status).toBe(204);
  });

  it('lists with limit/offset in creation order and filters by email and name', async () => {
    const token = uniq('Pager');
    const made = [];
    for (let i = 0; i < 5; i += 1) made.push(await createCustomer(t, { name: `${token} ${i}`, email: `${token}.${i}@Example.com` }));
    const q = encodeURIComponent(token.toLowerCase());
    const page = async (query: string) => (await t.admin('GET', `/customers?q=${q}${query}`)).json.map((c: { id: string }) => c.id);
    expect(await page('')).toEqual(made.map((c) => c.id));
    expect(await page('&limit=2')).toEqual(made.slice(0, 2).map((c) => c.id));
    expect(await page('&limit=2&offset=2')).toEqual(made.slice(2, 4).map((c) => c.id));
    expect(await page('&offset=3')).toEqual(made.slice(3).map((c) => c.id));
    expect(await page('&limit=5000')).toHaveLength(5);

    const byEmail = await t.admin('GET', `/customers?email=${encodeURIComponent(`${token}.1@example.COM`)}`);
    expect(byEmail.json).toEqual([made[1]]);

    // LIKE wildcards in q are literal text.
    const literal = await createCustomer(t, { name: `${token} 100%_off` });
    expect((await t.admin('GET', `/customers?q=${encodeURIComponent('0%_O')}`)).json.map((c: { id: string }) => c.id)).toContain(literal.id);
    expect(await page(encodeURIComponent('%'))).toEqual([]);
    expect((await t.admin('GET', `/customers?q=${q}${encodeURIComponent('_')}`)).json).toEqual([]);
    expect((await t.admin('GET', `/customers?q=%00`)).json).toEqual({ error: 'q must not contain NUL characters' });

    for (const bad of ['limit=0', 'limit=-1', 'limit=1.5', 'limit=abc', 'offset=-1']) {
      const res = await t.admin('GET', `/customers?${bad}`);
      expect(res.status, bad).toBe(400);
      expect(res.json.error).toMatch(/^(limit|offset) /);
    }
  });

  it('maps every route to its permission (401 without credentials, 403 without the permission)', async () => {
    const c = await createCustomer(t);
    await expectPermissionMapping(
      t,
      [
        { method: 'GET', path: '/customers', permission: 'customers:read', okStatus: 200 },
        { method: 'GET', path: `/customers/${c.id}`, permission: 'customers:read', okStatus: 200 },
        { method: 'POST', path: '/customers', permission: 'customers:write', body: customerBody(), okStatus: 201 },
        { method: 'PUT', path: `/customers/${c.id}`, permission: 'customers:write', body: customerBody(), okStatus: 200 },
        { method: 'DELETE', path: `/customers/${c.id}`, permission: 'customers:delete', okStatus: 204 },
      ],
      ['customers:read', 'customers:write', 'customers:delete'],
    );
    // Without the permission an unknown id is still 403, not 404.
    const reader = await staffWith(t, ['customers:read']);
    expect((await t.req('DELETE', '/customers/nope', { token: reader.token })).status).toBe(403);
  });

  it('records the acting staff member as performedBy', async () => {
    const writer = await staffWith(t, ['customers:write']);
    const res = await t.req('POST', '/customers', { body: customerBody(), token: writer.token });
    expect((await entryFor('customers.create', res.json.id))?.performedBy).toBe(writer.username);
  });
});
