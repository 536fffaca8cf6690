import http from 'node:http';
import SqliteDatabase from 'better-sqlite3';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCustomer, newLicense, createProduct, validate } from '../../test/helpers/fixtures.js';
import { DIALECTS, startTestApp, type TestApp } from '../../test/helpers/test-app.js';
import { until } from '../../test/helpers/until.js';
import { STREAM_BATCH_SIZE } from '../db/list-queries.js';

const LISTS = ['/licenses', '/customers', '/products', '/orders'];

/** Records straight into the database (the API would take minutes for a body this large). */
async function insertLicensesWithHistory(t: TestApp, count: number, attemptsEach: number): Promise<void> {
  const [product, customer] = [await createProduct(t), await createCustomer(t)];
  const base = Date.now() - 1_000_000;
  const ids = Array.from({ length: count }, (_, i) => `BULK-${String(i).padStart(5, '0')}`);
  for (let i = 0; i < ids.length; i += 200) {
    await t.app.db
      .insertInto('licenses')
      .values(ids.slice(i, i + 200).map((id, j) => ({
        id, product_id: product.id, customer_id: customer.id, expires_at: null, max_ips: null, max_hwids: null, version: 1,
        created_at: base + i + j,
      })))
      .execute();
  }
  const attempts = ids.flatMap((license_id) =>
    Array.from({ length: attemptsEach }, (_, k) => ({
      license_id, hwid: `HWID-${k}-${'x'.repeat(40)}`, ip: '10.0.0.1', timestamp: base + k, successful: 1, reason: 'VALID',
    })),
  );
  for (let i = 0; i < attempts.length; i += 500) await t.app.db.insertInto('validation_attempts').values(attempts.slice(i, i + 500)).execute();
}

/** Opens an unpaged GET, reads its first chunk and then stops reading (the server must wait on backpressure). */
function openAndPause(t: TestApp, path: string): Promise<{ status: number; close(): void }> {
  return new Promise((resolve, reject) => {
    const req = http.get(new URL(path, t.baseUrl), { headers: { authorization: `Bearer ${t.adminToken}` } }, (res) => {
      res.once('data', () => {
        res.pause();
        resolve({ status: res.statusCode!, close: () => req.destroy() });
      });
    });
    req.on('error', (err) => {
      if ((err as NodeJS.ErrnoException).code !== 'ECONNRESET') reject(err);
    });
  });
}

describe.each(DIALECTS)('unpaged lists are streamed (%s)', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(dialect, { VALIDATION_RATE_LIMIT: '100000' });
  });
  afterAll(() => t.close());

  it('answer an empty list with [] and X-Total-Count 0', async () => {
    const fresh = await startTestApp(dialect);
    try {
      for (const path of LISTS.filter((p) => p !== '/customers' && p !== '/products')) {
        const res = await fresh.admin('GET', path);
        expect(res.status, path).toBe(200);
        expect(res.text, path).toBe('[]');
        expect(res.headers['x-total-count'], path).toBe('0');
      }
      const res = await fresh.admin('GET', '/products?q=nothing-matches');
      expect([res.text, res.headers['x-total-count']]).toEqual(['[]', '0']);
    } finally {
      await fresh.close();
    }
  });

  it('send, over several batches and in any sort order, exactly the bytes of the paged answer holding every record', async () => {
    const product = await createProduct(t);
    const customer = await createCustomer(t);
    const count = 2 * STREAM_BATCH_SIZE + 7;
    const licenses = [];
    // Every third license expires, on one of seven days: ties and nulls for the expiresAt order.
    const expiry = (i: number) => (i % 3 === 0 ? Date.now() + (1 + (i % 7)) * 86_400_000 : null);
    for (let i = 0; i < count; i += 1) {
      licenses.push(await newLicense(t, { productId: product.id, customerId: customer.id, expiresAtEpochMillis: expiry(i) }));
    }
    for (let i = 0; i < 5; i += 1) {
      await validate(t, { licenseId: licenses[i * 40]!.id, productId: product.id, hwid: `HW-${i}` }, `127.0.0.${2 + i}`);
    }
    for (let i = 0; i < STREAM_BATCH_SIZE + 3; i += 1) {
      const order = { customerId: customer.id, productIds: [product.id], totalAmount: i, licenseIds: [licenses[i]!.id] };
      expect((await t.admin('POST', '/orders', { body: order })).status).toBe(201);
      // Names past ASCII (2-, 3- and 4-byte UTF-8) cross the streamed pieces as they are.
      await createCustomer(t, { name: `customer_${i} Zoë Łódź 東京 😀` });
      await createProduct(t, { price: i + 0.5, marketplaceResourceId: i % 2 ? `res-${i}` : null });
    }

    const sorted = [
      '/licenses?order=desc', '/licenses?sort=expiresAt', '/licenses?sort=expiresAt&order=desc', '/customers?sort=name&order=desc',
      '/customers?sort=email', '/products?sort=price&order=desc', '/orders?sort=totalAmount&order=desc',
    ];
    for (const path of [...LISTS, ...sorted, `/licenses?customerId=${customer.id}`, `/orders?productId=${product.id}`, '/customers?q=customer_']) {
      const streamed = await t.admin('GET', path);
      const paged = await t.admin('GET', `${path}${path.includes('?') ? '&' : '?'}limit=1000`);
      expect(streamed.status, path).toBe(200);
      expect(streamed.headers['transfer-encoding'], path).toBe('chunked');
      expect(streamed.headers['content-type'], path).toBe('application/json; charset=utf-8');
      expect(streamed.headers['x-total-count'], path).toBe(paged.headers['x-total-count']);
      expect(Number(streamed.headers['x-total-count']), path).toBeGreaterThan(STREAM_BATCH_SIZE);
      expect(streamed.text, path).toBe(paged.text);
    }
    const all = (await t.admin('GET', `/licenses?customerId=${customer.id}`)).json as { id: string; validationAttempts: unknown[] }[];
    const inListOrder = [...licenses].sort((a, b) => a.createdAtEpochMillis - b.createdAtEpochMillis || (a.id < b.id ? -1 : 1));
    expect(all.map((l) => l.id)).toEqual(inListOrder.map((l) => l.id));
    expect(all.filter((l) => l.validationAttempts.length === 1)).toHaveLength(5);
  });

  it('hold one snapshot while the client reads slowly, without blocking writes, and release it when the client leaves', async () => {
    await insertLicensesWithHistory(t, 3 * STREAM_BATCH_SIZE, 300); // about 30 MB of JSON: more than socket buffers hold
    const snapshotHeld =
      dialect === 'postgres'
        ? async () => {
            const rows = await sql<{ n: number }>`SELECT count(*)::int AS n FROM pg_stat_activity
              WHERE datname = current_database() AND pid <> pg_backend_pid() AND xact_start IS NOT NULL`.execute(t.app.db);
            return rows.rows[0]!.n > 0;
          }
        : async () => {
            // A TRUNCATE checkpoint cannot finish while a reader still uses the WAL.
            const probe = new SqliteDatabase(t.config.databaseUrl.slice('sqlite:'.length));
            try {
              probe.pragma('busy_timeout = 0');
              const [result] = probe.pragma('wal_checkpoint(TRUNCATE)') as { busy: number }[];
              return result!.busy !== 0;
            } finally {
              probe.close();
            }
          };

    const stream = await openAndPause(t, '/licenses');
    let customer: { id: string };
    try {
      expect(stream.status).toBe(200);
      // Meanwhile, writes commit and validations answer (on SQLite too: the stream reads on a connection of its own).
      customer = await createCustomer(t);
      const license = await newLicense(t, { customerId: customer.id });
      expect((await validate(t, { licenseId: license.id, productId: license.productId, hwid: 'HW' }, '127.0.0.9')).json).toEqual({ valid: true });
      expect(await snapshotHeld()).toBe(true);
    } finally {
      stream.close();
    }
    await until('the streamed list released its snapshot', snapshotHeld, (held) => !held);
    // The service goes on answering lists after the abandoned one.
    expect((await t.admin('GET', `/licenses?customerId=${customer.id}`)).json).toHaveLength(1);
  });
});
