import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, startTestApp, type TestApp } from '../../../test/helpers/test-app.js';
import { createRole, staffWith } from '../../../test/helpers/fixtures.js';

describe.each(DIALECTS)('audit log (%s)', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(dialect);
  });
  afterAll(() => t.close());

  it('returns entries newest first with the documented fields', async () => {
    for (let i = 0; i < 3; i += 1) await createRole(t, []);
    const res = await t.admin('GET', '/actions?limit=3');
    expect(res.status).toBe(200);
    expect(res.json).toHaveLength(3);
    for (const entry of res.json) {
      expect(entry).toEqual({
        id: expect.any(String), name: 'roles.create', performedBy: 'root',
        timestampEpochMillis: expect.any(Number), data: expect.any(String),
      });
      expect(JSON.parse(entry.data).permissions).toEqual([]);
    }
    const times = res.json.map((e: { timestampEpochMillis: number }) => e.timestampEpochMillis);
    expect([...times].sort((a, b) => b - a)).toEqual(times);
  });

  it('defaults to 200 entries, clamps above 1000 and rejects 0, negatives and non-integers', async () => {
    await Promise.all(Array.from({ length: 205 }, () => createRole(t, [])));
    expect((await t.admin('GET', '/actions')).json).toHaveLength(200);
    const clamped = await t.admin('GET', '/actions?limit=5000');
    expect(clamped.status).toBe(200);
    expect(clamped.json.length).toBeGreaterThan(200);
    expect(clamped.json.length).toBeLessThanOrEqual(1000);
    for (const bad of ['0', '-1', '2.5', 'ten']) {
      const res = await t.admin('GET', `/actions?limit=${bad}`);
      expect(res.status, bad).toBe(400);
      expect(res.json.error).toContain('limit');
    }
  });

  it('filters by event name', async () => {
    const role = await createRole(t, []);
    await t.admin('DELETE', `/roles/${role.id}`);
    const res = await t.admin('GET', '/actions?name=roles.delete');
    expect(res.json.length).toBeGreaterThan(0);
    expect(res.json.every((e: { name: string }) => e.name === 'roles.delete')).toBe(true);
  });

  it('requires actions:read', async () => {
    const without = await staffWith(t, ['roles:read']);
    const withIt = await staffWith(t, ['actions:read']);
    expect((await t.req('GET', '/actions', { token: without.token })).status).toBe(403);
    expect((await t.req('GET', '/actions', { token: withIt.token })).status).toBe(200);
    expect((await t.req('GET', '/actions')).status).toBe(401);
  });
});
