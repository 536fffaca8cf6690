import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, startTestApp, type TestApp } from '../../../test/helpers/test-app.js';
import { auditEntries, createRole, staffWith, uniq } from '../../../test/helpers/fixtures.js';

describe.each(DIALECTS)('roles (%s)', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(dialect);
  });
  afterAll(() => t.close());

  it('creates, reads, lists, replaces and deletes a role, auditing each change', async () => {
    const name = uniq('Support');
    const created = await t.admin('POST', '/roles', { body: { name, permissions: ['customers:read', 'orders:read'] } });
    expect(created.status).toBe(201);
    const id = created.json.id as string;
    expect(created.json).toEqual({ id, name, permissions: ['customers:read', 'orders:read'] });
    expect((await t.admin('GET', `/roles/${id}`)).json).toEqual(created.json);
    expect((await t.admin('GET', '/roles')).json).toContainEqual(created.json);

    const updated = await t.admin('PUT', `/roles/${id}`, { body: { name: `${name} v2`, permissions: ['products:read'] } });
    expect(updated.json).toEqual({ id, name: `${name} v2`, permissions: ['products:read'] });
    expect((await t.admin('GET', `/roles/${id}`)).json).toEqual(updated.json);

    const del = await t.admin('DELETE', `/roles/${id}`);
    expect(del.status).toBe(204);
    expect(del.text).toBe('');
    expect((await t.admin('GET', `/roles/${id}`)).status).toBe(404);

    for (const event of ['roles.create', 'roles.update', 'roles.delete']) {
      const entries = (await auditEntries(t, event)).filter((e) => e.data.includes(id));
      expect(entries, event).toHaveLength(1);
      expect(entries[0]!.performedBy).toBe('root');
    }
  });

  it('rejects bad bodies with a 400 naming the field, and writes nothing', async () => {
    const before = (await auditEntries(t)).length;
    const cases: [unknown, string][] = [
      [{ permissions: [] }, 'name'],
      [{ name: 'x' }, 'permissions'],
      [{ name: 'x', permissions: ['customers:fly'] }, 'permissions'],
      [{ name: 'x', permissions: 'customers:read' }, 'permissions'],
      [{ name: 5, permissions: [] }, 'name'],
      [[], 'body'],
    ];
    for (const [body, field] of cases) {
      const res = await t.admin('POST', '/roles', { body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.json.error.toLowerCase()).toContain(field.toLowerCase());
    }
    expect((await auditEntries(t)).length).toBe(before);
  });

  it('answers 404 for unknown ids on GET, PUT and DELETE', async () => {
    for (const [method, body] of [['GET'], ['PUT', { name: 'x', permissions: [] }], ['DELETE']] as const) {
      const res = await t.admin(method, '/roles/0190f0f0-0000-7000-8000-000000000000', { body });
      expect(res.status).toBe(404);
      expect(res.json).toEqual({ error: 'Role not found' });
    }
  });

  it('removes a deleted role from every account and applies permission changes immediately', async () => {
    const acct = await staffWith(t, ['customers:read']);
    const role = (await t.admin('GET', `/staff/${acct.id}`)).json.roleIds[0] as string;
    expect((await t.req('GET', '/roles', { token: acct.token })).status).toBe(403);
    await t.admin('PUT', `/roles/${role}`, { body: { name: 'r', permissions: ['roles:read'] } });
    expect((await t.req('GET', '/roles', { token: acct.token })).status).toBe(200);
    await t.admin('DELETE', `/roles/${role}`);
    expect((await t.admin('GET', `/staff/${acct.id}`)).json.roleIds).toEqual([]);
    expect((await t.req('GET', '/roles', { token: acct.token })).status).toBe(403);
  });

  it('maps roles:read, roles:write and roles:delete to their routes', async () => {
    const role = await createRole(t, []);
    const reader = await staffWith(t, ['roles:read']);
    const writer = await staffWith(t, ['roles:write']);
    const deleter = await staffWith(t, ['roles:delete']);
    const body = { name: 'x', permissions: [] };
    expect((await t.req('GET', `/roles/${role.id}`, { token: writer.token })).status).toBe(403);
    expect((await t.req('POST', '/roles', { token: reader.token, body })).status).toBe(403);
    expect((await t.req('PUT', `/roles/${role.id}`, { token: deleter.token, body })).status).toBe(403);
    expect((await t.req('DELETE', `/roles/${role.id}`, { token: writer.token })).status).toBe(403);
    expect((await t.req('GET', `/roles/${role.id}`, { token: reader.token })).status).toBe(200);
    expect((await t.req('PUT', `/roles/${role.id}`, { token: writer.token, body })).status).toBe(200);
    expect((await t.req('DELETE', `/roles/${role.id}`, { token: deleter.token })).status).toBe(204);
  });
});
