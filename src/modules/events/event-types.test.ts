// GET /webhook-endpoints/event-types: the vocabulary the portal's event picker offers,
// readable with webhooks:read, and every type in it accepted by POST /webhook-endpoints.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { staffWith } from '../../../test/helpers/fixtures.js';
import { startTestApp, type TestApp } from '../../../test/helpers/test-app.js';
import { AUDIT_EVENT_TYPES, EVENT_TYPES } from './event-types.js';

describe('webhook event types', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp('sqlite', { WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true' });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('lists every subscribable type, without the wildcard or ping', async () => {
    const res = await t.admin('GET', '/webhook-endpoints/event-types');
    expect(res.status).toBe(200);
    expect(res.json).toEqual(EVENT_TYPES);
    expect(res.json).toEqual(expect.arrayContaining(['licenses.create', 'licenses.validate.failed', 'licenses.expiring', 'marketplace.license.create']));
    expect(res.json).not.toContain('*');
    expect(res.json).not.toContain('ping');
  });

  it('is not taken for an endpoint id', async () => {
    const res = await t.admin('GET', '/webhook-endpoints/not-an-endpoint');
    expect(res.status).toBe(404);
  });

  it('needs webhooks:read', async () => {
    expect((await t.req('GET', '/webhook-endpoints/event-types')).status).toBe(401);
    const writer = await staffWith(t, ['webhooks:write']);
    expect((await t.req('GET', '/webhook-endpoints/event-types', { token: writer.token })).status).toBe(403);
    const reader = await staffWith(t, ['webhooks:read']);
    expect((await t.req('GET', '/webhook-endpoints/event-types', { token: reader.token })).status).toBe(200);
  });

  it('names only types an endpoint may subscribe to', async () => {
    const types = (await t.admin('GET', '/webhook-endpoints/event-types')).json as string[];
    const res = await t.admin('POST', '/webhook-endpoints', { body: { url: 'http://127.0.0.1:9/hook', events: types, enabled: false } });
    expect(res.status, res.text).toBe(201);
    expect((res.json as { events: string[] }).events).toHaveLength(types.length);
  });
});

// One vocabulary: every action the code audits is an event type, and every audit event type
// is an action some code writes (read from the sources, so a new audit action cannot be
// forgotten here).
describe('audit actions and event types', () => {
  const sources = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) return sources(path);
      return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [readFileSync(path, 'utf8')] : [];
    });
  const code = sources(fileURLToPath(new URL('../..', import.meta.url))).join('\n');
  const written = new Set([
    ...[...code.matchAll(/recordAudit\([^,()]+,[^,()]+,\s*'([\w.]+)'/g)].map((m) => m[1]!),
    ...[...code.matchAll(/auditRow\([^,()]+,\s*'([\w.]+)'/g)].map((m) => m[1]!),
  ]);

  it('every audited action is an event type', () => {
    expect(written.size).toBeGreaterThan(30);
    expect([...written].filter((name) => !AUDIT_EVENT_TYPES.includes(name as never))).toEqual([]);
  });

  it('every audit event type is written by some code', () => {
    const literal = (name: string) => code.split(`'${name}'`).length - 1;
    // Named once in event-types.ts; written somewhere else.
    expect(AUDIT_EVENT_TYPES.filter((name) => !written.has(name) && literal(name) < 2)).toEqual([]);
  });
});
