import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, startTestApp, type TestApp } from '../../../test/helpers/test-app.js';
import { auditEntries, createRole, generateKey, staffWith, uniq } from '../../../test/helpers/fixtures.js';

describe.each(DIALECTS)('staff and registration (%s)', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(dialect);
  });
  afterAll(() => t.close());

  const body = (key: string, over: Record<string, unknown> = {}) => {
    const username = uniq('user');
    return { registrationKey: key, username, email: `${username}@example.com`, password: 'long-enough-pw', roleIds: [], ...over };
  };
  const register = (b: unknown) => t.req('POST', '/staff/register', { body: b });
  const keyIsUsable = async (key: string) => (await register(body(key))).status === 201;

  it('registers an account with roles in the given order, without password material, and audits it', async () => {
    const [r1, r2] = [await createRole(t, ['customers:read']), await createRole(t, ['orders:read'])];
    const b = body(await generateKey(t), { roleIds: [r2.id, r1.id] });
    const res = await register(b);
    expect(res.status).toBe(201);
    expect(res.json).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/), username: b.username, email: b.email,
      roleIds: [r2.id, r1.id], active: true, isMasterAdmin: false,
    });
    expect(res.text).not.toContain(b.password);
    const entry = (await auditEntries(t, 'staff.create')).find((e) => e.data.includes(res.json.id));
    expect(entry?.performedBy).toBe(b.username);
    expect(entry?.data).not.toMatch(/password|hash|argon/i);
  });

  it('follows the documented check order and never consumes the key on failure', async () => {
    const key = await generateKey(t);
    const missing = await register({ registrationKey: key, username: 'x', email: 'x@example.com', roleIds: [] });
    expect(missing.status).toBe(400);
    expect(missing.json.error).toContain('password');
    // a bad key is reported before a short password
    const unknown = await register(body('no-such-key', { password: 'short' }));
    expect(unknown.json).toEqual({ error: 'Invalid registration key' });
    expect(unknown.status).toBe(403);

    const short = await register(body(key, { password: '1234567' }));
    expect(short.status).toBe(400);
    expect(short.json).toEqual({ error: 'Password must be at least 8 characters' });

    const taken = await staffWith(t, []);
    const dup = await register(body(key, { username: taken.username }));
    expect(dup.status).toBe(409);
    expect(dup.json).toEqual({ error: 'Username already taken' });

    const badRole = await register(body(key, { roleIds: ['no-such-role'] }));
    expect(badRole.status).toBe(400);
    expect(badRole.json.error).toContain('no-such-role');

    expect(await keyIsUsable(key)).toBe(true);
    const reused = await register(body(key));
    expect(reused.status).toBe(403);
    expect(reused.json).toEqual({ error: 'This registration key has already been used' });
  });

  it('consumes a key once when registrations race', async () => {
    const key = await generateKey(t);
    const results = await Promise.all(Array.from({ length: 8 }, () => register(body(key))));
    expect(results.filter((r) => r.status === 201)).toHaveLength(1);
    for (const r of results.filter((x) => x.status !== 201)) {
      expect(r.status).toBe(403);
      expect(r.json).toEqual({ error: 'This registration key has already been used' });
    }
  });

  it('gives one account to one username when registrations race', async () => {
    const username = uniq('same');
    const keys = await Promise.all(Array.from({ length: 4 }, () => generateKey(t)));
    const results = await Promise.all(keys.map((k) => register(body(k, { username }))));
    expect(results.filter((r) => r.status === 201)).toHaveLength(1);
    expect(results.filter((r) => r.status === 409)).toHaveLength(3);
  });

  it('lists and reads accounts, with 404 for unknown ids of any form', async () => {
    const acct = await staffWith(t, []);
    const list = await t.admin('GET', '/staff');
    expect(list.status).toBe(200);
    expect(list.json.map((s: { id: string }) => s.id)).toContain(acct.id);
    expect(list.json.find((s: { isMasterAdmin: boolean }) => s.isMasterAdmin)).toBeDefined();
    expect(list.text).not.toMatch(/password|argon/i);
    expect((await t.admin('GET', `/staff/${acct.id}`)).json.username).toBe(acct.username);
    for (const id of ['nope', "' OR '1'='1", 'x'.repeat(2000)]) {
      const res = await t.admin('GET', `/staff/${encodeURIComponent(id)}`);
      expect(res.status).toBe(404);
      expect(res.json).toEqual({ error: 'Staff account not found' });
    }
    for (const [method, path, b] of [
      ['PUT', '/staff/nope/roles', { roleIds: [] }],
      ['PUT', '/staff/nope/active', { active: true }],
      ['DELETE', '/staff/nope', undefined],
    ] as const) {
      expect((await t.admin(method, path, { body: b })).status).toBe(404);
    }
  });

  it('replaces roles, toggles activation and deletes, each audited', async () => {
    const role = await createRole(t, ['products:read']);
    const acct = await staffWith(t, ['customers:read']);
    const setRoles = await t.admin('PUT', `/staff/${acct.id}/roles`, { body: { roleIds: [role.id, role.id] } });
    expect(setRoles.json.roleIds).toEqual([role.id]);
    expect((await t.admin('PUT', `/staff/${acct.id}/roles`, { body: { roleIds: ['ghost'] } })).status).toBe(400);
    expect((await t.admin('PUT', `/staff/${acct.id}/active`, { body: { active: 'no' } })).status).toBe(400);
    expect((await t.admin('PUT', `/staff/${acct.id}/active`, { body: { active: false } })).json.active).toBe(false);
    const del = await t.admin('DELETE', `/staff/${acct.id}`);
    expect(del.status).toBe(204);
    expect(del.text).toBe('');
    expect((await t.admin('GET', `/staff/${acct.id}`)).status).toBe(404);
    for (const name of ['staff.setRoles', 'staff.setActive', 'staff.delete']) {
      expect((await auditEntries(t, name)).filter((e) => e.data.includes(acct.id))).toHaveLength(1);
    }
  });

  it('protects the Master Admin from deactivation, role changes and deletion', async () => {
    const list = await t.admin('GET', '/staff');
    const master = list.json.find((s: { isMasterAdmin: boolean }) => s.isMasterAdmin);
    for (const [method, path, b] of [
      ['PUT', `/staff/${master.id}/active`, { active: false }],
      ['PUT', `/staff/${master.id}/roles`, { roleIds: [] }],
      ['DELETE', `/staff/${master.id}`, undefined],
    ] as const) {
      const res = await t.admin(method, path, { body: b });
      expect(res.status).toBe(403);
      expect(res.json).toEqual({ error: 'The Master Admin account cannot be changed' });
    }
  });

  it('maps staff:read and staff:manage to their routes', async () => {
    const reader = await staffWith(t, ['staff:read']);
    const manager = await staffWith(t, ['staff:manage']);
    expect((await t.req('GET', '/staff', { token: reader.token })).status).toBe(200);
    expect((await t.req('GET', '/staff', { token: manager.token })).status).toBe(403);
    expect((await t.req('PUT', `/staff/${reader.id}/active`, { token: reader.token, body: { active: true } })).status).toBe(403);
    expect((await t.req('PUT', `/staff/${reader.id}/active`, { token: manager.token, body: { active: true } })).status).toBe(200);
    expect((await t.req('DELETE', `/staff/${reader.id}`, { token: reader.token })).status).toBe(403);
  });
});

describe.each(DIALECTS)('registration keys (%s)', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(dialect);
  });
  afterAll(() => t.close());

  it('generates, lists (without the key) and revokes keys; a revoked key is invalid', async () => {
    const created = await t.admin('POST', '/admin/registration-keys', { body: { note: 'for jane' } });
    expect(created.status).toBe(201);
    expect(created.json).toMatchObject({ note: 'for jane', createdBy: 'root', usedAtEpochMillis: null, usedBy: null });
    expect(created.json.key.length).toBeGreaterThanOrEqual(22);
    const bare = await t.admin('POST', '/admin/registration-keys');
    expect(bare.status).toBe(201);

    const list = await t.admin('GET', '/admin/registration-keys');
    expect(list.json.map((k: { id: string }) => k.id)).toContain(created.json.id);
    expect(list.text).not.toContain(created.json.key);

    const entry = (await auditEntries(t, 'registrationKey.generate')).find((e) => e.data.includes(created.json.id));
    expect(entry).toBeDefined();
    expect(entry!.data).not.toContain(created.json.key);

    expect((await t.admin('DELETE', `/admin/registration-keys/${created.json.id}`)).status).toBe(204);
    const res = await t.req('POST', '/staff/register', {
      body: { registrationKey: created.json.key, username: uniq('u'), email: 'a@b.c', password: 'long-enough', roleIds: [] },
    });
    expect(res.status).toBe(403);
    expect((await t.admin('DELETE', `/admin/registration-keys/${created.json.id}`)).status).toBe(404);
  });

  it('records who used a key and refuses to revoke a used one', async () => {
    const created = await t.admin('POST', '/admin/registration-keys', { body: {} });
    const username = uniq('u');
    await t.req('POST', '/staff/register', {
      body: { registrationKey: created.json.key, username, email: 'a@b.c', password: 'long-enough', roleIds: [] },
    });
    const listed = (await t.admin('GET', '/admin/registration-keys')).json.find((k: { id: string }) => k.id === created.json.id);
    expect(listed.usedBy).toBe(username);
    expect(typeof listed.usedAtEpochMillis).toBe('number');
    expect((await t.admin('DELETE', `/admin/registration-keys/${created.json.id}`)).status).toBe(409);
  });
});
