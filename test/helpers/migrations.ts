// Migration tests: move a database to one named migration, and the smallest set of
// records (a customer, a product, licenses L1 and L2) that attempt rows can point at.
import { Migrator, type Kysely } from 'kysely';
import { migrations } from '../../src/db/migrations/index.js';

export async function migrateTo(db: Kysely<any>, name: string): Promise<void> {
  const { error } = await new Migrator({ db, provider: { getMigrations: async () => migrations } }).migrateTo(name);
  if (error) throw error;
}

export async function insertTwoLicenses(db: Kysely<any>, now = Date.now()): Promise<void> {
  await db.insertInto('customers').values({ id: 'c', name: 'C', email: 'c@example.com', socials: '{}', created_at: now }).execute();
  await db
    .insertInto('products')
    .values({ id: 'p', name: 'P', product_type: 'software', price: 1, requires_license: 1, is_subscription: 0, created_at: now })
    .execute();
  await db
    .insertInto('licenses')
    .values(['L1', 'L2'].map((id) => ({ id, product_id: 'p', customer_id: 'c', expires_at: null, max_ips: null, max_hwids: null, version: 1, created_at: now })))
    .execute();
}
