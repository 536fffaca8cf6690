// The grant sweep (DECISIONS.md, "Privilege boundaries"): every path that grants
// permissions (create role, update role, update a held role, assign roles, self-assign,
// registration with roleIds, API token creation), tried in both ROLE_GRANTS modes with
// JWT, Basic and API-token callers. Where the rule refuses, the answer is 403 (400 for an
// API token's permissions, as before) and roles, accounts, keys, tokens and the audit log
// are exactly as they were.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRole, generateKey, uniq, type StaffAccount } from '../../../test/helpers/fixtures.js';
import type { RequestOptions } from '../../../test/helpers/http.js';
import { DIALECTS, startTestApp, type TestApp } from '../../../test/helpers/test-app.js';
import { PERMISSIONS } from './permissions.js';

const OWN = { error: 'You cannot change your own privileges' };
const MODES = ['open', 'subset'] as const;

type Caller = { name: string; auth: RequestOptions };

describe.each(DIALECTS.flatMap((dialect) => MODES.map((mode) => [dialect, mode] as const)))('privilege boundaries (%s, ROLE_GRANTS=%s)', (dialect, mode) => {
  let t: TestApp;
  const subset = mode === 'subset';

  /** Registers an account with exactly these roles and signs it in. */
  async function account(roleIds: string[]): Promise<StaffAccount> {
    const username = uniq('user');
    const password = `pw-${randomBytes(8).toString('hex')}`;
    const reg = await t.req('POST', '/staff/register', {
      body: { registrationKey: await generateKey(t), username, email: `${username}@example.com`, password, roleIds },
    });
    expect(reg.status, reg.text).toBe(201);
    const login = await t.req('POST', '/auth/login', { body: { username, password } });
    return { id: reg.json.id, username, password, token: login.json.token };
  }

  /** JWT, Basic and an API token carrying `tokenPermissions` (default: all of the account's). */
  async function callers(acct: StaffAccount, tokenPermissions: string[]): Promise<Caller[]> {
    const created = await t.req('POST', '/api-tokens', {
      token: acct.token,
      body: { name: uniq('tok'), permissions: tokenPermissions, expiresAtEpochMillis: null },
    });
    expect(created.status, created.text).toBe(201);
    return [
      { name: 'JWT', auth: { token: acct.token } },
      { name: 'Basic', auth: { basic: [acct.username, acct.password] } },
      { name: 'API token', auth: { token: created.json.token } },
    ];
  }

  /** Everything a grant could change, to compare before and after a refused attempt. */
  const state = async () => ({
    roles: (await t.admin('GET', '/roles')).json,
    staff: (await t.admin('GET', '/staff')).json,
    keys: (await t.admin('GET', '/admin/registration-keys')).json,
    audit: (await t.admin('GET', '/actions?limit=1')).json,
  });

  /** Runs `attempt`, expects `status` and `body`, and (when refused) that nothing changed. */
  async function expectRefused(attempt: () => Promise<{ status: number; json: unknown }>, status: number, body?: unknown) {
    const before = await state();
    const res = await attempt();
    expect(res.status, JSON.stringify(res.json)).toBe(status);
    if (body !== undefined) expect(res.json).toEqual(body);
    expect(await state()).toEqual(before);
  }

  let all: { id: string; permissions: string[] };
  let writerRole: { id: string };
  let managerRole: { id: string };
  let readCustomers: { id: string };
  let readStaff: { id: string };
  let writer: StaffAccount;
  let manager: StaffAccount;
  let other: StaffAccount;

  beforeAll(async () => {
    t = await startTestApp(dialect, { ROLE_GRANTS: mode });
    all = await createRole(t, [...PERMISSIONS], uniq('all'));
    writerRole = await createRole(t, ['roles:read', 'roles:write']);
    managerRole = await createRole(t, ['roles:read', 'roles:write', 'staff:read', 'staff:manage']);
    readCustomers = await createRole(t, ['customers:read']);
    readStaff = await createRole(t, ['staff:read']);
    writer = await account([writerRole.id]);
    manager = await account([managerRole.id]);
    other = await account([readCustomers.id]);
  });
  afterAll(() => t?.close());

  it('update a held role: 403 for JWT, Basic and API token (even with a bad body); role and permissions unchanged', async () => {
    for (const caller of await callers(writer, ['roles:read', 'roles:write'])) {
      const widen = { name: 'mine', permissions: [...PERMISSIONS] };
      await expectRefused(() => t.req('PUT', `/roles/${writerRole.id}`, { ...caller.auth, body: widen }), 403, OWN);
      await expectRefused(() => t.req('PUT', `/roles/${writerRole.id}`, { ...caller.auth, body: { name: 42 } }), 403, OWN);
      // Narrowing one's own role is a change of one's own privileges too.
      await expectRefused(() => t.req('PUT', `/roles/${writerRole.id}`, { ...caller.auth, body: { name: 'x', permissions: [] } }), 403, OWN);
    }
    const me = await t.req('GET', '/staff/me', { token: writer.token });
    expect(me.json.permissions).toEqual(['roles:read', 'roles:write']);
  });

  it('self-assign: 403 for JWT, Basic and API token, whatever the roles; the account keeps its roles', async () => {
    for (const caller of await callers(manager, ['roles:read', 'roles:write', 'staff:read', 'staff:manage'])) {
      for (const roleIds of [[all.id], [managerRole.id, all.id], [], [readStaff.id]]) {
        await expectRefused(() => t.req('PUT', `/staff/${manager.id}/roles`, { ...caller.auth, body: { roleIds } }), 403, OWN);
      }
    }
    expect((await t.admin('GET', `/staff/${manager.id}`)).json.roleIds).toEqual([managerRole.id]);
  });

  it('make an all-powerful role, then assign it to oneself: the second step is refused in every mode', async () => {
    const made = await t.req('POST', '/roles', { token: manager.token, body: { name: uniq('mega'), permissions: [...PERMISSIONS] } });
    if (subset) {
      expect(made.status).toBe(403);
      expect(made.json.error).toMatch(/^Cannot grant permissions you do not hold: customers:read, /);
      return;
    }
    expect(made.status).toBe(201);
    await expectRefused(() => t.req('PUT', `/staff/${manager.id}/roles`, { token: manager.token, body: { roleIds: [made.json.id] } }), 403, OWN);
  });

  it('create role: permissions the caller lacks are 403 in subset mode (nothing created), allowed in open mode', async () => {
    for (const caller of await callers(writer, ['roles:read', 'roles:write'])) {
      const body = { name: uniq('r'), permissions: ['roles:read', 'customers:delete', 'licenses:write'] };
      if (subset) {
        await expectRefused(() => t.req('POST', '/roles', { ...caller.auth, body }), 403, {
          error: 'Cannot grant permissions you do not hold: customers:delete, licenses:write',
        });
      } else {
        expect((await t.req('POST', '/roles', { ...caller.auth, body })).status).toBe(201);
      }
      // What the caller holds may always be granted.
      expect((await t.req('POST', '/roles', { ...caller.auth, body: { name: uniq('r'), permissions: ['roles:read'] } })).status).toBe(201);
    }
  });

  it('update a role the caller does not hold: permissions it lacks are 403 in subset mode (unchanged), allowed in open mode', async () => {
    const target = await createRole(t, ['roles:read']);
    for (const caller of await callers(writer, ['roles:read', 'roles:write'])) {
      const body = { name: 'widened', permissions: ['roles:read', 'customers:delete'] };
      if (subset) {
        await expectRefused(() => t.req('PUT', `/roles/${target.id}`, { ...caller.auth, body }), 403, {
          error: 'Cannot grant permissions you do not hold: customers:delete',
        });
      } else {
        expect((await t.req('PUT', `/roles/${target.id}`, { ...caller.auth, body })).status).toBe(200);
      }
      expect((await t.req('PUT', `/roles/${target.id}`, { ...caller.auth, body: { name: 'ok', permissions: ['roles:write'] } })).status).toBe(200);
    }
  });

  it("assign roles to another account: roles with permissions the caller lacks are 403 in subset mode (unchanged), allowed in open mode", async () => {
    for (const caller of await callers(manager, ['roles:read', 'roles:write', 'staff:read', 'staff:manage'])) {
      const body = { roleIds: [readStaff.id, all.id] };
      if (subset) {
        const missing = PERMISSIONS.filter((p) => !['roles:read', 'roles:write', 'staff:read', 'staff:manage'].includes(p));
        await expectRefused(() => t.req('PUT', `/staff/${other.id}/roles`, { ...caller.auth, body }), 403, {
          error: `Cannot grant permissions you do not hold: ${missing.join(', ')}`,
        });
      } else {
        expect((await t.req('PUT', `/staff/${other.id}/roles`, { ...caller.auth, body })).status).toBe(200);
      }
      const held = await t.req('PUT', `/staff/${other.id}/roles`, { ...caller.auth, body: { roleIds: [readStaff.id] } });
      expect(held.status).toBe(200);
      expect(held.json.roleIds).toEqual([readStaff.id]);
    }
  });

  it('an API token grants no more than it carries: a narrow token of a manager cannot assign what the token lacks (subset)', async () => {
    const [, , narrow] = await callers(manager, ['staff:manage']);
    const attempt = () => t.req('PUT', `/staff/${other.id}/roles`, { ...narrow!.auth, body: { roleIds: [readStaff.id] } });
    if (subset) await expectRefused(attempt, 403, { error: 'Cannot grant permissions you do not hold: staff:read' });
    else expect((await attempt()).status).toBe(200);
  });

  it('registration with roleIds: a key with roles grants only those (403, key unused, no account); a key without roles grants any', async () => {
    const limited = await t.admin('POST', '/admin/registration-keys', { body: { note: 'support', roleIds: [readCustomers.id, readCustomers.id] } });
    expect(limited.status).toBe(201);
    expect(limited.json.roleIds).toEqual([readCustomers.id]);
    const username = uniq('reg');
    const body = (roleIds: string[]) => ({ registrationKey: limited.json.key, username, email: `${username}@example.com`, password: 'long-enough-pw', roleIds });
    await expectRefused(() => t.req('POST', '/staff/register', { body: body([readCustomers.id, all.id]) }), 403, {
      error: `The registration key does not grant role ${all.id}`,
    });
    await expectRefused(() => t.req('POST', '/staff/register', { body: body([all.id]) }), 403);
    const ok = await t.req('POST', '/staff/register', { body: body([readCustomers.id]) });
    expect(ok.status).toBe(201);
    expect(ok.json.roleIds).toEqual([readCustomers.id]);
    const listed = ((await t.admin('GET', '/admin/registration-keys')).json as { id: string; usedBy: string | null; roleIds?: string[] }[]).find((k) => k.id === limited.json.id);
    expect(listed).toMatchObject({ usedBy: username, roleIds: [readCustomers.id] });

    // No roles on the key: SPEC.md's registration, any role, in both modes; the answer has no roleIds.
    const open = await t.admin('POST', '/admin/registration-keys', { body: {} });
    expect(open.json).not.toHaveProperty('roleIds');
    const free = uniq('reg');
    const any = await t.req('POST', '/staff/register', {
      body: { registrationKey: open.json.key, username: free, email: `${free}@example.com`, password: 'long-enough-pw', roleIds: [all.id] },
    });
    expect(any.status).toBe(201);
    // Unknown roleIds on a key: 400, no key made.
    await expectRefused(() => t.admin('POST', '/admin/registration-keys', { body: { roleIds: ['ghost'] } }), 400, { error: 'Unknown roleIds: ghost' });
  });

  it('API token creation: only permissions the owner holds (400, nothing created); a widened role does not widen a token', async () => {
    const role = await createRole(t, ['roles:read']);
    const owner = await account([role.id]);
    const tokens = async () => (await t.req('GET', '/api-tokens', { token: owner.token })).json;
    const before = await tokens();
    const refused = await t.req('POST', '/api-tokens', {
      token: owner.token,
      body: { name: 'x', permissions: ['roles:read', 'customers:read'], expiresAtEpochMillis: null },
    });
    expect(refused.status).toBe(400);
    expect(await tokens()).toEqual(before);

    const made = await t.req('POST', '/api-tokens', { token: owner.token, body: { name: 'x', permissions: ['roles:read'], expiresAtEpochMillis: null } });
    expect(made.status).toBe(201);
    await t.admin('PUT', `/roles/${role.id}`, { body: { name: 'wider', permissions: ['roles:read', 'customers:read'] } });
    expect((await t.req('GET', '/customers', { token: owner.token })).status).toBe(200);
    expect((await t.req('GET', '/customers', { token: made.json.token })).status).toBe(403);
    expect((await t.req('GET', '/roles', { token: made.json.token })).status).toBe(200);
    // Narrowing the role narrows the token at once.
    await t.admin('PUT', `/roles/${role.id}`, { body: { name: 'narrow', permissions: ['customers:read'] } });
    expect((await t.req('GET', '/roles', { token: made.json.token })).status).toBe(403);
  });

  it('the Master Admin may change any role and assign any role; its own roles stay fixed', async () => {
    expect((await t.admin('PUT', `/roles/${writerRole.id}`, { body: { name: 'writer', permissions: ['roles:read', 'roles:write'] } })).status).toBe(200);
    expect((await t.admin('PUT', `/staff/${other.id}/roles`, { body: { roleIds: [all.id] } })).status).toBe(200);
    const master = (await t.admin('GET', '/staff')).json.find((s: { isMasterAdmin: boolean }) => s.isMasterAdmin);
    expect((await t.admin('PUT', `/staff/${master.id}/roles`, { body: { roleIds: [all.id] } })).json).toEqual({
      error: 'The Master Admin account cannot be changed',
    });
  });
});
