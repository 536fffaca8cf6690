import { sql } from 'kysely';
import type { Db } from '../../db/database.js';
import { afterKey, withPage, withSort, type Page, type Sort, type SortColumns } from '../../db/list-queries.js';
import type { OrderRow } from '../../db/schema.js';

export interface OrderFilter extends Page, Sort {
  customerId?: string;
  productId?: string;
  licenseId?: string;
  refunded?: boolean;
}

/** Keeps `in (…)` lists well below both databases' bound-parameter limits. */
const CHUNK = 500;

export const findOrder = (db: Db, id: string) =>
  db.selectFrom('orders').selectAll().where('id', '=', id).executeTakeFirst();

/** Orders with an item row (a product or a license) of this id: one index probe per order. */
const holding = (items: 'order_products' | 'order_licenses', id: string) =>
  sql<boolean>`exists (select 1 from ${sql.table(items)} i where i.order_id = orders.id and i.${sql.raw(items === 'order_products' ? 'product_id' : 'license_id')} = ${id})`;

/** The orders the filter matches, before paging: the list and its count share it. */
function matchingOrders(db: Db, filter: OrderFilter) {
  let query = db.selectFrom('orders');
  if (filter.customerId !== undefined) query = query.where('customer_id', '=', filter.customerId);
  // An order's licenseId is always among its licenses (orders.service.ts), so one probe says both.
  if (filter.licenseId !== undefined) query = query.where(holding('order_licenses', filter.licenseId));
  if (filter.refunded !== undefined) query = query.where('refunded_at', filter.refunded ? 'is not' : 'is', null);
  if (filter.productId !== undefined) query = query.where(holding('order_products', filter.productId));
  return query;
}

/** Fields GET /orders may sort by. */
export const ORDER_SORT: SortColumns = {
  columns: { createdAt: 'created_at', totalAmount: 'total_amount' },
  recordFields: { createdAt: 'createdAtEpochMillis' },
};

export const listOrders = (db: Db, filter: OrderFilter): Promise<OrderRow[]> =>
  withPage(withSort(afterKey(matchingOrders(db, filter), ORDER_SORT, filter).selectAll(), ORDER_SORT, filter), filter).execute();

export async function countOrders(db: Db, filter: OrderFilter): Promise<number> {
  const row = await matchingOrders(db, filter).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  return row.n;
}

/** Product ids per order, in position order, for all `orderIds` (one query per 500 orders). */
export async function productIdsByOrder(db: Db, orderIds: readonly string[]): Promise<Map<string, string[]>> {
  const result = new Map<string, string[]>(orderIds.map((id) => [id, []]));
  for (let i = 0; i < orderIds.length; i += CHUNK) {
    const rows = await db
      .selectFrom('order_products')
      .select(['order_id', 'product_id'])
      .where('order_id', 'in', orderIds.slice(i, i + CHUNK))
      .orderBy('order_id')
      .orderBy('position')
      .execute();
    for (const row of rows) result.get(row.order_id)?.push(row.product_id);
  }
  return result;
}

/** License ids per order, in position order, for all `orderIds` (one query per 500 orders). */
export async function licenseIdsByOrder(db: Db, orderIds: readonly string[]): Promise<Map<string, string[]>> {
  const result = new Map<string, string[]>(orderIds.map((id) => [id, []]));
  for (let i = 0; i < orderIds.length; i += CHUNK) {
    const rows = await db
      .selectFrom('order_licenses')
      .select(['order_id', 'license_id'])
      .where('order_id', 'in', orderIds.slice(i, i + CHUNK))
      .orderBy('order_id')
      .orderBy('position')
      .execute();
    for (const row of rows) result.get(row.order_id)?.push(row.license_id);
  }
  return result;
}

/** Which of `ids` are existing licenses (the licenses table belongs to the licenses module). */
export async function existingLicenseIds(db: Db, ids: readonly string[]): Promise<Set<string>> {
  const candidates = [...new Set(ids)];
  if (candidates.length === 0) return new Set();
  const rows = await db.selectFrom('licenses').select('id').where('id', 'in', candidates).execute();
  return new Set(rows.map((r) => r.id));
}

export const insertOrder = (trx: Db, row: OrderRow) => trx.insertInto('orders').values(row).execute();

export async function updateOrder(
  trx: Db,
  id: string,
  values: Pick<OrderRow, 'customer_id' | 'total_amount' | 'refunded_at'>,
): Promise<boolean> {
  const result = await trx.updateTable('orders').set(values).where('id', '=', id).executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** Deletes the order; its product and license rows go with it (ON DELETE CASCADE). */
export const deleteOrder = (trx: Db, id: string) => trx.deleteFrom('orders').where('id', '=', id).execute();

/** Replaces the order's products and licenses, keeping the given order. */
export async function replaceOrderItems(
  trx: Db,
  orderId: string,
  productIds: readonly string[],
  licenseIds: readonly string[],
): Promise<void> {
  await trx.deleteFrom('order_products').where('order_id', '=', orderId).execute();
  await trx.deleteFrom('order_licenses').where('order_id', '=', orderId).execute();
  if (productIds.length > 0) {
    await trx
      .insertInto('order_products')
      .values(productIds.map((productId, position) => ({ order_id: orderId, product_id: productId, position })))
      .execute();
  }
  if (licenseIds.length > 0) {
    await trx
      .insertInto('order_licenses')
      .values(licenseIds.map((licenseId, position) => ({ order_id: orderId, license_id: licenseId, position })))
      .execute();
  }
}

/**
 * Marks as refunded, at `at`, the orders of `customerId` that stand and hold one of
 * `licenseIds` (the licenses a refund revoked); returns their ids.
 */
export async function markRefunded(trx: Db, customerId: string, licenseIds: readonly string[], at: number): Promise<string[]> {
  if (licenseIds.length === 0) return [];
  const rows = await trx
    .updateTable('orders')
    .set({ refunded_at: at })
    .where('customer_id', '=', customerId)
    .where('refunded_at', 'is', null)
    .where('id', 'in', trx.selectFrom('order_licenses').select('order_id').where('license_id', 'in', [...licenseIds]))
    .returning('id')
    .execute();
  return rows.map((r) => r.id).sort();
}
