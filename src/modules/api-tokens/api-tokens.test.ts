import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { DIALECTS, startTestApp, type TestApp } from '../../../test/helpers/test-app.js';
import { auditEntries, createRole, staffWith, uniq } from '../../../test/helpers/fixtures.js';

describe.each(DIALECTS)('API tokens (%s)', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(dialect);
  });
  afterAll(() => t.close());

  const create = (token: string, body: Record<string, unknown>) =>
    t.req('POST', '/api-tokens', { token, body: { name: uniq('token'), expiresAtEpochMillis: null, ...body } });

  it('creates a token shown once (lst_ + 256 bits), lists it without the secret, and audits without the secret', async () => {
    const staff = await staffWith(t, ['customers:read', 'products:read']);
    const res = await create(staff.token, { name: 'exporter', permissions: ['customers:read'] });
    expect(res.status).toBe(201);
    const { token, ...view } = res.json;
    expect(token).toMatch(/^lst_[A-Za-z0-9_-]{43}$/);
    expect(Buffer.from(token.slice(4), 'base64url')).toHaveLength(32);
    expect(view).toEqual({
      id: expect.any(String),
      name: 'exporter',
      permissions: ['customers:read'],
      createdAtEpochMillis: expect.any(Number),
      expiresAtEpochMillis: null,
      lastUsedAtEpochMillis: null,
    });

    const list = await t.req('GET', '/api-tokens', { token: staff.token });
    expect(list.status).toBe(200);
    expect(list.json).toEqual([view]);
    expect(list.text).not.toContain(token.slice(4));

    const stored = await t.app.db.selectFrom('api_tokens').select('token_hash').where('id', '=', view.id).executeTakeFirstOrThrow();
    const audit = (await auditEntries(t, 'apiToken.create')).find((e) => JSON.parse(e.data).id === view.id)!;
    expect(audit.performedBy).toBe(staff.username);
    expect(audit.data).not.toContain(token.slice(4));
    expect(audit.data).not.toContain(stored.token_hash);
    expect(list.text).not.toContain(stored.token_hash);
  });

  it('authorises with the granted permissions only, as Bearer', async () => {
    const staff = await staffWith(t, ['customers:read', 'products:read']);
    const { token } = (await create(staff.token, { permissions: ['customers:read'] })).json;
    expect((await t.req('GET', '/customers', { token })).status).toBe(200);
    const denied = await t.req('GET', '/products', { token });
    expect(denied.status).toBe(403);
    expect(denied.json).toEqual({ error: 'Missing permission: products:read' });
  });

  it('refuses permissions the owner lacks, unknown permissions, a past expiry and a missing name (400)', async () => {
    const staff = await staffWith(t, ['customers:read']);
    const notHeld = await create(staff.token, { permissions: ['customers:read', 'licenses:write'] });
    expect(notHeld.status).toBe(400);
    expect(notHeld.json.error).toContain('licenses:write');
    const wildcard = await create(staff.token, { permissions: ['*'] });
    expect(wildcard.status).toBe(400);
    const unknown = await create(staff.token, { permissions: ['customers:fly'] });
    expect(unknown.json).toEqual({ error: 'Unknown permission: customers:fly' });
    const past = await create(staff.token, { permissions: ['customers:read'], expiresAtEpochMillis: Date.now() - 1000 });
    expect(past.status).toBe(400);
    expect(past.json.error).toContain('expiresAtEpochMillis');
    const noName = await t.req('POST', '/api-tokens', { token: staff.token, body: { permissions: ['customers:read'], expiresAtEpochMillis: null } });
    expect(noName.status).toBe(400);
    expect(noName.json.error).toContain('name');
    expect((await t.req('GET', '/api-tokens', { token: staff.token })).json).toEqual([]);
  });

  it('narrows a token at once when the owner loses a permission through a role change', async () => {
    const staff = await staffWith(t, ['customers:read', 'products:read']);
    const { token } = (await create(staff.token, { permissions: ['customers:read', 'products:read'] })).json;
    expect((await t.req('GET', '/customers', { token })).status).toBe(200);
    const narrower = await createRole(t, ['products:read']);
    expect((await t.admin('PUT', `/staff/${staff.id}/roles`, { body: { roleIds: [narrower.id] } })).status).toBe(200);
    expect((await t.req('GET', '/customers', { token })).status).toBe(403);
    expect((await t.req('GET', '/products', { token })).status).toBe(200);
  });

  it("stops an inactive owner's tokens, and a deleted owner's", async () => {
    const staff = await staffWith(t, ['customers:read']);
    const { token } = (await create(staff.token, { permissions: ['customers:read'] })).json;
    await t.admin('PUT', `/staff/${staff.id}/active`, { body: { active: false } });
    expect((await t.req('GET', '/customers', { token })).status).toBe(401);
    await t.admin('PUT', `/staff/${staff.id}/active`, { body: { active: true } });
    expect((await t.req('GET', '/customers', { token })).status).toBe(200);
    await t.admin('DELETE', `/staff/${staff.id}`);
    const gone = await t.req('GET', '/customers', { token });
    expect(gone.status).toBe(401);
    expect(gone.json).toEqual({ error: 'Invalid or expired token' });
  });

  it('refuses an expired token', async () => {
    const staff = await staffWith(t, ['customers:read']);
    const res = await create(staff.token, { permissions: ['customers:read'], expiresAtEpochMillis: Date.now() + 3_600_000 });
    expect((await t.req('GET', '/customers', { token: res.json.token })).status).toBe(200);
    await t.app.db.updateTable('api_tokens').set({ expires_at: Date.now() - 1 }).where('id', '=', res.json.id).execute();
    expect((await t.req('GET', '/customers', { token: res.json.token })).status).toBe(401);
  });

  it('revokes a token (204, audited) so that a second instance on the same database refuses it on its next request', async () => {
    const second = await startTestApp(dialect, {}, t.database);
    try {
      const staff = await staffWith(t, ['customers:read']);
      const { id, token } = (await create(staff.token, { permissions: ['customers:read'] })).json;
      expect((await second.req('GET', '/customers', { token })).status).toBe(200);
      expect((await t.req('DELETE', `/api-tokens/${id}`, { token: staff.token })).status).toBe(204);
      expect((await second.req('GET', '/customers', { token })).status).toBe(401);
      expect((await t.req('GET', '/customers', { token })).status).toBe(401);
      expect((await t.req('DELETE', `/api-tokens/${id}`, { token: staff.token })).status).toBe(404);
      const audit = (await auditEntries(t, 'apiToken.revoke')).find((e) => JSON.parse(e.data).id === id)!;
      expect(audit.performedBy).toBe(staff.username);
      expect(audit.data).not.toContain(token.slice(4));
    } finally {
      await second.close();
    }
  });

  it("cannot revoke another account's token (404)", async () => {
    const owner = await staffWith(t, ['customers:read']);
    const other = await staffWith(t, ['customers:read']);
    const { id, token } = (await create(owner.token, { permissions: ['customers:read'] })).json;
    expect((await t.req('DELETE', `/api-tokens/${id}`, { token: other.token })).status).toBe(404);
    expect((await t.req('GET', '/customers', { token })).status).toBe(200);
  });

  it('writes lastUsedAt on use, then at most once a minute', async () => {
    const staff = await staffWith(t, ['customers:read']);
    const { id, token } = (await create(staff.token, { permissions: ['customers:read'] })).json;
    await t.req('GET', '/customers', { token });
    const first = (await t.req('GET', '/api-tokens', { token: staff.token })).json[0].lastUsedAtEpochMillis;
    expect(first).toEqual(expect.any(Number));
    await t.req('GET', '/customers', { token });
    expect((await t.req('GET', '/api-tokens', { token: staff.token })).json[0].lastUsedAtEpochMillis).toBe(first);
    // A minute later (moved back in the database rather than waiting), the next use writes again.
    await t.app.db.updateTable('api_tokens').set({ last_used_at: sql<number>`last_used_at - 61000` }).where('id', '=', id).execute();
    await t.req('GET', '/customers', { token });
    expect((await t.req('GET', '/api-tokens', { token: staff.token })).json[0].lastUsedAtEpochMillis).toBeGreaterThanOrEqual(first);
  });

  it('cannot mint tokens or change the account with an API token (403)', async () => {
    const staff = await staffWith(t, ['customers:read']);
    const { token } = (await create(staff.token, { permissions: ['customers:read'] })).json;
    for (const [method, path, body] of [
      ['POST', '/api-tokens', { name: 'x', permissions: ['customers:read'], expiresAtEpochMillis: null }],
      ['PUT', '/staff/me/password', { currentPassword: staff.password, newPassword: 'another-password' }],
      ['POST', '/staff/me/totp', undefined],
    ] as const) {
      const res = await t.req(method, path, { token, body });
      expect(res.status).toBe(403);
      expect(res.json.error).toContain('API tokens cannot');
    }
  });

  it("gives a Master Admin token with '*' the Master Admin's rights, and one without only what it names", async () => {
    const all = (await create(t.adminToken, { permissions: ['*'] })).json.token;
    expect((await t.req('GET', '/admin/registration-keys', { token: all })).status).toBe(200);
    const some = (await create(t.adminToken, { permissions: ['customers:read'] })).json.token;
    expect((await t.req('GET', '/admin/registration-keys', { token: some })).status).toBe(403);
    expect((await t.req('GET', '/customers', { token: some })).status).toBe(200);
    expect((await t.req('GET', '/products', { token: some })).status).toBe(403);
  });
});
