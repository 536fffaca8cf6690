import type { Db } from '../../db/database.js';
import { afterKey, containsIgnoringCase, withPage, withSort, type Page, type Sort, type SortColumns } from '../../db/list-queries.js';
import type { CustomersTable } from '../../db/schema.js';

export type CustomerValues = Omit<CustomersTable, 'id' | 'created_at'>;

export interface CustomerFilter extends Page, Sort {
  email?: string;
  q?: string;
}

export const findCustomer = (db: Db, id: string) =>
  db.selectFrom('customers').selectAll().where('id', '=', id).executeTakeFirst();

/** The customer whose socials.MarketplaceID is `userId` (kept in its own unique column). */
export const findCustomerByMarketplaceUserId = (db: Db, userId: string) =>
  db.selectFrom('customers').selectAll().where('marketplace_user_id', '=', userId).executeTakeFirst();

/** The customer whose socials.PolymartID is `userId` (kept in its own unique column). */
export const findCustomerByPolymartUserId = (db: Db, userId: string) =>
  db.selectFrom('customers').selectAll().where('polymart_user_id', '=', userId).executeTakeFirst();

/** The customers the filter matches, before paging: the list and its count share it. */
function matchingCustomers(db: Db, filter: CustomerFilter) {
  let query = db.selectFrom('customers');
  if (filter.email !== undefined) query = query.where(containsIgnoringCase('email', filter.email));
  if (filter.q !== undefined) query = query.where(containsIgnoringCase('name', filter.q));
  return query;
}

/** Fields GET /customers may sort by. */
export const CUSTOMER_SORT: SortColumns = {
  columns: { createdAt: 'created_at', name: 'name', email: 'email' },
  recordFields: { createdAt: 'createdAtEpochMillis' },
};

export const listCustomers = (db: Db, filter: CustomerFilter): Promise<CustomersTable[]> =>
  withPage(withSort(afterKey(matchingCustomers(db, filter), CUSTOMER_SORT, filter).selectAll(), CUSTOMER_SORT, filter), filter).execute();

export async function countCustomers(db: Db, filter: CustomerFilter): Promise<number> {
  const row = await matchingCustomers(db, filter).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  return row.n;
}

export const insertCustomer = (trx: Db, row: CustomersTable) => trx.insertInto('customers').values(row).execute();

export async function updateCustomer(trx: Db, id: string, values: CustomerValues): Promise<boolean> {
  const result = await trx.updateTable('customers').set(values).where('id', '=', id).executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

export const deleteCustomer = (trx: Db, id: string) => trx.deleteFrom('customers').where('id', '=', id).execute();

/** How many licenses and orders belong to the customer. */
export async function countCustomerReferences(db: Db, id: string): Promise<{ licenses: number; orders: number }> {
  const licenses = await db
    .selectFrom('licenses')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('customer_id', '=', id)
    .executeTakeFirstOrThrow();
  const orders = await db
    .selectFrom('orders')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('customer_id', '=', id)
    .executeTakeFirstOrThrow();
  return { licenses: licenses.n, orders: orders.n };
}
