// The outbox under faults (issue #20 "Must hold"): kill -9 while events are pending and
// the receiver fails half the time loses nothing and invents nothing; two instances on
// one PostgreSQL database never both send the same attempt. Real processes, real sockets.
import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { afterAll, describe, expect, it } from 'vitest';
import { createDb } from '../../db/database.js';
import { startChildApp, type ChildApp } from '../../../test/helpers/child-process-app.js';
import { ADMIN, createTestDatabase, DIALECTS, type TestDatabase } from '../../../test/helpers/test-app.js';
import { until } from '../../../test/helpers/until.js';
import { startReceiver, type Receiver } from '../../../test/helpers/webhook-receiver.js';

const ENV = {
  WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
  WEBHOOK_RETRY_SCHEDULE_SECONDS: Array.from({ length: 30 }, () => '1').join(','),
};

async function adminToken(app: ChildApp): Promise<string> {
  return (await app.req('POST', '/auth/login', { body: ADMIN })).json.token as string;
}

/** Creates `count` customers, `parallel` at a time; returns their ids. */
async function createCustomers(app: ChildApp, token: string, count: number, parallel = 8): Promise<string[]> {
  const ids: string[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: parallel }, async () => {
      while (next < count) {
        const n = next++;
        const res = await app.req('POST', '/customers', { token, body: { name: `Buyer ${n}`, email: `buyer${n}-${randomBytes(3).toString('hex')}@example.com` } });
        if (res.status !== 201) throw new Error(`customer ${n}: ${res.status} ${res.text}`);
        ids.push(res.json.id as string);
      }
    }),
  );
  return ids;
}

async function customerEventIds(databaseUrl: string): Promise<Map<string, string>> {
  const { db } = createDb(databaseUrl);
  try {
    const rows = await db.selectFrom('audit_entries').select(['id', 'data']).where('name', '=', 'customers.create').execute();
    return new Map(rows.map((r) => [r.id, (JSON.parse(r.data) as { id: string }).id]));
  } finally {
    await db.destroy();
  }
}

async function pendingCount(databaseUrl: string): Promise<number> {
  const { db } = createDb(databaseUrl);
  try {
    const row = await db.selectFrom('webhook_outbox').select((eb) => eb.fn.countAll().as('n')).where('status', '=', 'pending').executeTakeFirstOrThrow();
    return Number(row.n);
  } finally {
    await db.destroy();
  }
}

const deliveredIds = (receiver: Receiver) =>
  new Set(receiver.received.filter((r) => r.answered !== undefined && r.answered < 300).map((r) => r.headers['webhook-id'] as string));

describe.each(DIALECTS)('webhook outbox under faults (%s)', (dialect) => {
  const cleanup: (() => Promise<void>)[] = [];
  afterAll(async () => {
    for (const step of cleanup.reverse()) await step();
  });

  it('kill -9 with 1,000 events pending and a receiver failing half the time: after restart each is delivered, with its id, signed; none invented', async () => {
    const database: TestDatabase = await createTestDatabase(dialect);
    cleanup.push(() => database.drop());
    const receiver = await startReceiver();
    cleanup.push(() => receiver.close());
    let calls = 0;
    receiver.behave((_r, response) => {
      const fail = calls++ % 2 === 0;
      setTimeout(() => response.writeHead(fail ? 500 : 200).end(), 30); // slow enough that a queue builds up
    });

    const first = await startChildApp({ DATABASE_URL: database.url, ...ENV });
    const token = await adminToken(first);
    const endpoint = await first.req('POST', '/webhook-endpoints', { token, body: { url: receiver.url, events: ['customers.create'] } });
    expect(endpoint.status).toBe(201);
    const secret = endpoint.json.secret as string;
    const customers = await createCustomers(first, token, 1000);
    await first.kill();
    const pendingAtKill = await pendingCount(database.url);
    expect(pendingAtKill).toBeGreaterThan(100);

    const second = await startChildApp({ DATABASE_URL: database.url, ...ENV });
    cleanup.push(() => second.stop());
    const events = await customerEventIds(database.url);
    expect(events.size).toBe(1000);
    expect(new Set(events.values())).toEqual(new Set(customers));
    await until('every event delivered after the restart', () => deliveredIds(receiver).size, (n) => n >= events.size, { timeoutMs: 90_000, everyMs: 200 });

    const delivered = deliveredIds(receiver);
    expect([...events.keys()].filter((id) => !delivered.has(id))).toEqual([]);
    const verifier = new Webhook(secret);
    for (const request of receiver.received) {
      const id = request.headers['webhook-id'] as string;
      expect(events.has(id), `invented event ${id}`).toBe(true);
      const event = verifier.verify(request.body, request.headers as Record<string, string>) as { type: string; data: { id: string } };
      expect(event.data.id).toBe(events.get(id));
    }
    expect(await pendingCount(database.url)).toBe(0);
  }, 150_000);
});

describe.skipIf(!DIALECTS.includes('postgres'))('webhook outbox with two instances (postgres)', () => {
  const cleanup: (() => Promise<void>)[] = [];
  afterAll(async () => {
    for (const step of cleanup.reverse()) await step();
  });

  it('two instances on one database: each attempt is sent by one of them (no duplicates)', async () => {
    const database = await createTestDatabase('postgres');
    cleanup.push(() => database.drop());
    const receiver = await startReceiver();
    cleanup.push(() => receiver.close());
    const [a, b] = await Promise.all([startChildApp({ DATABASE_URL: database.url, ...ENV }), startChildApp({ DATABASE_URL: database.url, ...ENV })]);
    cleanup.push(() => a.stop(), () => b.stop());
    const token = await adminToken(a);
    expect((await a.req('POST', '/webhook-endpoints', { token, body: { url: receiver.url, events: ['customers.create'] } })).status).toBe(201);
    const tokenB = await adminToken(b);
    await Promise.all([createCustomers(a, token, 200, 4), createCustomers(b, tokenB, 200, 4)]);
    await receiver.waitFor(400, () => true, 60_000);
    // Time for a duplicate to show up, were there one: a second send of a claimed event is
    // recorded nowhere, so there is nothing to await, and child processes have no clock to move.
    await new Promise((r) => setTimeout(r, 1500));
    const ids = receiver.received.map((r) => r.headers['webhook-id'] as string);
    expect(ids).toHaveLength(400);
    expect(new Set(ids).size).toBe(400);
  }, 120_000);
});
