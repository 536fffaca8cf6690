// Fills a fresh database for bench/scale.ts with bulk SQL (not through the API: 100k
// licenses and 2M attempts would take the API an hour): N licenses with 20 attempts each
// and one with 1,000, N/5 customers, N/2 orders of one product and one license each.
// The attempts go through the validation_attempts triggers, so the stats counters agree.
import { sql } from 'kysely';
import type { Db, Dialect } from '../src/db/database.js';

const ATTEMPTS_EACH = 20;
const BUSY_LICENSE_ATTEMPTS = 1000;

/** 0 … n-1 as a row source named `seq(i)`, in either dialect. */
const series = (dialect: Dialect, n: number) =>
  dialect === 'postgres'
    ? sql`(SELECT generate_series(0, ${sql.lit(n - 1)}) AS i) AS seq`
    : sql`(WITH RECURSIVE s(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM s WHERE i < ${sql.lit(n - 1)}) SELECT i FROM s) AS seq`;

/** Text of a number, zero-padded to 8 digits, in either dialect. */
const padded = (dialect: Dialect, expr: ReturnType<typeof sql>) =>
  dialect === 'postgres' ? sql`lpad((${expr})::text, 8, '0')` : sql`printf('%08d', ${expr})`;

export async function fill(db: Db, dialect: Dialect, n: number): Promise<{ productId: string; customerId: string }> {
  const now = Date.now();
  const customers = Math.max(1, Math.floor(n / 5));
  const orders = Math.floor(n / 2);
  const i = sql`seq.i`;
  await db.insertInto('products').values({
    id: 'scale-product', name: 'Scale product', description: null, product_type: 'software', price: 1, requires_license: 1,
    is_subscription: 0, recurring_period_days: null, max_ips: null, max_hwids: null, marketplace_resource_id: null, created_at: now - 1e9,
  }).execute();
  await sql`INSERT INTO customers (id, name, email, socials, marketplace_user_id, created_at)
    SELECT ${sql`'scale-customer-' || ${padded(dialect, i)}`}, ${sql`'Customer ' || ${padded(dialect, i)}`},
      ${sql`'c' || ${padded(dialect, i)} || '@example.com'`}, '{}', NULL, ${sql.lit(now - 1e9)} + ${i}
    FROM ${series(dialect, customers)}`.execute(db);
  // Half the licenses expired: the stats have both kinds to count.
  await sql`INSERT INTO licenses (id, product_id, customer_id, expires_at, max_ips, max_hwids, version, created_at)
    SELECT ${sql`'SCALE-' || ${padded(dialect, i)}`}, 'scale-product',
      ${sql`'scale-customer-' || ${padded(dialect, sql`${i} % ${sql.lit(customers)}`)}`},
      CASE WHEN ${i} % 2 = 0 THEN NULL ELSE ${sql.lit(now)} + (${i} % 7 - 3) * 86400000 END, NULL, NULL, 1, ${sql.lit(now - 1e9)} + ${i}
    FROM ${series(dialect, n)}`.execute(db);
  // Attempts spread over the last 14 days, in chunks of 10k licenses (one transaction each).
  const chunk = 10_000;
  for (let start = 0; start < n; start += chunk) {
    const count = Math.min(chunk, n - start);
    await sql`INSERT INTO validation_attempts (license_id, hwid, ip, timestamp, successful, reason)
      SELECT ${sql`'SCALE-' || ${padded(dialect, sql`${sql.lit(start)} + ${i} / ${sql.lit(ATTEMPTS_EACH)}`)}`}, 'HWID-SCALE', '10.0.0.1',
        ${sql.lit(now)} - (${i} * 6151) % 1209600000, CASE WHEN ${i} % 10 = 0 THEN 0 ELSE 1 END,
        CASE WHEN ${i} % 10 = 0 THEN 'HWID_LIMIT_REACHED' ELSE 'VALID' END
      FROM ${series(dialect, count * ATTEMPTS_EACH)}`.execute(db);
  }
  await sql`INSERT INTO validation_attempts (license_id, hwid, ip, timestamp, successful, reason)
    SELECT 'SCALE-00000000', 'HWID-BUSY', '10.0.0.2', ${sql.lit(now)} - ${i} * 1000, 1, 'VALID'
    FROM ${series(dialect, BUSY_LICENSE_ATTEMPTS - ATTEMPTS_EACH)}`.execute(db);
  if (orders > 0) {
    await sql`INSERT INTO orders (id, customer_id, total_amount, created_at)
      SELECT ${sql`'scale-order-' || ${padded(dialect, i)}`}, ${sql`'scale-customer-' || ${padded(dialect, sql`${i} % ${sql.lit(customers)}`)}`},
        1, ${sql.lit(now - 1e9)} + ${i}
      FROM ${series(dialect, orders)}`.execute(db);
    await sql`INSERT INTO order_products (order_id, product_id, position)
      SELECT ${sql`'scale-order-' || ${padded(dialect, i)}`}, 'scale-product', 0 FROM ${series(dialect, orders)}`.execute(db);
    await sql`INSERT INTO order_licenses (order_id, license_id, position)
      SELECT ${sql`'scale-order-' || ${padded(dialect, i)}`}, ${sql`'SCALE-' || ${padded(dialect, i)}`}, 0 FROM ${series(dialect, orders)}`.execute(db);
  }
  await sql`ANALYZE`.execute(db);
  return { productId: 'scale-product', customerId: 'scale-customer-00000000' };
}
