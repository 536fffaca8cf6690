import type { Db } from '../../db/database.js';
import { isForeignKeyViolation } from '../../db/storage/errors.js';
import { forEachBatch, isPaged, listKeyOf, type Page } from '../../db/list-queries.js';
import type { OrderRow } from '../../db/schema.js';
import { badRequest, notFound } from '../../http/errors.js';
import type { Listed } from '../../http/list-response.js';
import type { ListWriter } from '../../http/list-stream.js';
import { MAX_PAGE_SIZE } from '../../http/schemas.js';
import { newId } from '../../lib/ids.js';
import { recordAudit } from '../audit/audit.service.js';
import { findCustomer } from '../customers/customers.repository.js';
import { existingProductIds } from '../products/products.repository.js';
import * as repo from './orders.repository.js';
import type { Order, OrderBody, OrderQuery } from './orders.schemas.js';
import { clock } from '../../lib/clock.js';

/** What an order is made of; the marketplace webhook passes this to createOrder too. */
export type OrderInput = OrderBody;

type OrderItems = Pick<Order, 'customerId' | 'productIds' | 'totalAmount' | 'licenseIds' | 'licenseId'>;

const unique = (values: readonly string[]) => [...new Set(values)];

/** Products may repeat (two of one product); a license is associated at most once. */
const toItems = (input: OrderInput): OrderItems => {
  const licenseIds = unique([...(input.licenseIds ?? []), ...(input.licenseId ? [input.licenseId] : [])]);
  return {
    customerId: input.customerId,
    productIds: [...input.productIds],
    totalAmount: input.totalAmount,
    licenseIds,
    licenseId: input.licenseId !== undefined ? input.licenseId : (licenseIds[0] ?? null),
  };
};

const toOrder = (row: OrderRow, productIds: string[], licenseIds: string[]): Order => ({
  id: row.id,
  customerId: row.customer_id,
  productIds,
  totalAmount: row.total_amount,
  licenseIds,
  createdAtEpochMillis: row.created_at,
  kind: row.kind as Order['kind'],
  licenseId: row.license_id,
  // Absent while the order stands: an order reads as SPEC.md's Order until it is refunded.
  ...(row.refunded_at !== null && row.refunded_at !== undefined && { refundedAtEpochMillis: row.refunded_at }),
});

async function assertReferencesExist(db: Db, items: OrderItems): Promise<void> {
  if (!(await findCustomer(db, items.customerId))) throw badRequest(`Unknown customerId: ${items.customerId}`);
  const products = await existingProductIds(db, items.productIds);
  const unknownProducts = unique(items.productIds.filter((id) => !products.has(id)));
  if (unknownProducts.length > 0) throw badRequest(`Unknown productIds: ${unknownProducts.join(', ')}`);
  const licenses = await repo.existingLicenseIds(db, items.licenseIds);
  const unknownLicenses = items.licenseIds.filter((id) => !licenses.has(id));
  if (unknownLicenses.length > 0) throw badRequest(`Unknown licenseIds: ${unknownLicenses.join(', ')}`);
}

/** Writes the order's rows; a referenced record deleted since the check above is still a 400. */
async function saveItems(write: () => Promise<unknown>): Promise<void> {
  try {
    await write();
  } catch (err) {
    if (isForeignKeyViolation(err)) throw badRequest('Unknown customerId, productIds or licenseIds: a referenced record was just deleted');
    throw err;
  }
}

export async function getOrder(db: Db, id: string): Promise<Order> {
  const row = await repo.findOrder(db, id);
  if (!row) throw notFound('Order not found');
  const [products, licenses] = [await repo.productIdsByOrder(db, [id]), await repo.licenseIdsByOrder(db, [id])];
  return toOrder(row, products.get(id) ?? [], licenses.get(id) ?? []);
}

/**
 * The orders with their products and licenses, in three queries whatever their number,
 * and how many orders match the filters in all (one COUNT more when paged).
 */
export async function listOrders(db: Db, query: OrderQuery): Promise<Listed<Order>> {
  const filter = { ...query, limit: query.limit === undefined ? undefined : Math.min(query.limit, MAX_PAGE_SIZE) };
  const records = await loadOrders(db, filter);
  const total = isPaged(filter) ? await repo.countOrders(db, filter) : records.length;
  return { records, total };
}

/** The selected orders with their products and licenses, in three queries whatever their number. */
async function loadOrders(db: Db, filter: repo.OrderFilter): Promise<Order[]> {
  const rows = await repo.listOrders(db, filter);
  const ids = rows.map((r) => r.id);
  const [products, licenses] = [await repo.productIdsByOrder(db, ids), await repo.licenseIdsByOrder(db, ids)];
  return rows.map((row) => toOrder(row, products.get(row.id) ?? [], licenses.get(row.id) ?? []));
}

/** Every order matching the filters, written to `writer` batch by batch (call inside one snapshot). */
export async function streamOrders(db: Db, query: OrderQuery, writer: ListWriter<Order>): Promise<void> {
  const { limit: _limit, offset: _offset, ...filter } = query;
  writer.start(await repo.countOrders(db, filter));
  await forEachBatch(
    (page: Page) => loadOrders(db, { ...filter, ...page }),
    listKeyOf(repo.ORDER_SORT, filter),
    (records) => writer.write(records),
  );
}

/**
 * Creates an order and its `orders.create` entry in the caller's transaction. Unknown
 * customerId, productIds or licenseIds are a 400 HttpError. `auditTag` joins the entry's
 * data (a marketplace says it placed the order).
 */
export async function createOrder(trx: Db, actor: string, input: OrderInput, auditTag: object = {}): Promise<Order> {
  const items = toItems(input);
  await assertReferencesExist(trx, items);
  const row: OrderRow = {
    id: newId(),
    customer_id: items.customerId,
    total_amount: items.totalAmount,
    created_at: clock.now(),
    refunded_at: input.refundedAtEpochMillis ?? null,
    kind: input.kind ?? 'new',
    license_id: items.licenseId,
  };
  await saveItems(async () => {
    await repo.insertOrder(trx, row);
    await repo.replaceOrderItems(trx, row.id, items.productIds, items.licenseIds);
  });
  const order = toOrder(row, items.productIds, items.licenseIds);
  await recordAudit(trx, actor, 'orders.create', { ...order, ...auditTag });
  return order;
}

/** Full replacement: omitted licenseIds become []. */
export async function updateOrder(trx: Db, actor: string, id: string, input: OrderInput): Promise<Order> {
  const existing = await repo.findOrder(trx, id);
  if (!existing) throw notFound('Order not found');
  const items = toItems(input);
  await assertReferencesExist(trx, items);
  // Omitted: kept (an edit that does not mention the refund must not undo it).
  const values = {
    customer_id: items.customerId,
    total_amount: items.totalAmount,
    refunded_at: input.refundedAtEpochMillis === undefined ? existing.refunded_at : input.refundedAtEpochMillis,
    kind: input.kind ?? existing.kind,
    license_id: items.licenseId,
  };
  await saveItems(async () => {
    await repo.updateOrder(trx, id, values);
    await repo.replaceOrderItems(trx, id, items.productIds, items.licenseIds);
  });
  const order = toOrder({ ...existing, ...values }, items.productIds, items.licenseIds);
  await recordAudit(trx, actor, 'orders.update', order);
  return order;
}

/** Deletes the order; the entry holds the record as it was. */
export async function deleteOrder(trx: Db, actor: string, id: string): Promise<void> {
  const order = await getOrder(trx, id);
  await repo.deleteOrder(trx, id);
  await recordAudit(trx, actor, 'orders.delete', order);
}

/**
 * A refund: the customer's standing orders that hold one of the revoked licenses are
 * marked refunded now, each with its `orders.update` entry (`auditTag` joins its data).
 */
export async function refundOrdersOf(trx: Db, actor: string, customerId: string, licenseIds: readonly string[], auditTag: object = {}): Promise<string[]> {
  const ids = await repo.markRefunded(trx, customerId, licenseIds, clock.now());
  for (const id of ids) await recordAudit(trx, actor, 'orders.update', { ...(await getOrder(trx, id)), ...auditTag });
  return ids;
}
