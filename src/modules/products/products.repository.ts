import type { Db } from '../../db/database.js';
import { afterKey, containsIgnoringCase, withPage, withSort, type Page, type Sort, type SortColumns } from '../../db/list-queries.js';
import type { ProductRow } from '../../db/schema.js';

export type ProductValues = Omit<ProductRow, 'id' | 'created_at'>;

export const findProduct = (db: Db, id: string) =>
  db.selectFrom('products').selectAll().where('id', '=', id).executeTakeFirst();

/** The product the marketplace webhook sells under `resourceId`. */
export const findProductByMarketplaceResourceId = (db: Db, resourceId: string) =>
  db.selectFrom('products').selectAll().where('marketplace_resource_id', '=', resourceId).executeTakeFirst();

/** The product Polymart sells under `polymartId`. */
export const findProductByPolymartId = (db: Db, polymartId: string) =>
  db.selectFrom('products').selectAll().where('polymart_product_id', '=', polymartId).executeTakeFirst();

export interface ProductFilter extends Page, Sort {
  q?: string;
}

/** The products the filter matches, before paging: the list and its count share it. */
function matchingProducts(db: Db, filter: ProductFilter) {
  let query = db.selectFrom('products');
  if (filter.q !== undefined) query = query.where(containsIgnoringCase('name', filter.q));
  return query;
}

/** Fields GET /products may sort by. */
export const PRODUCT_SORT: SortColumns = {
  columns: { createdAt: 'created_at', name: 'name', price: 'price' },
  recordFields: { createdAt: 'createdAtEpochMillis' },
};

export const listProducts = (db: Db, filter: ProductFilter): Promise<ProductRow[]> =>
  withPage(withSort(afterKey(matchingProducts(db, filter), PRODUCT_SORT, filter).selectAll(), PRODUCT_SORT, filter), filter).execute();

/** Every product's id and name, by name: what GET /products/names shows. */
export const listProductNames = (db: Db) =>
  db.selectFrom('products').select(['id', 'name']).orderBy('name').orderBy('id').execute();

export async function countProducts(db: Db, filter: ProductFilter): Promise<number> {
  const row = await matchingProducts(db, filter).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  return row.n;
}

/** Which of `ids` exist. */
export async function existingProductIds(db: Db, ids: readonly string[]): Promise<Set<string>> {
  const candidates = [...new Set(ids)];
  if (candidates.length === 0) return new Set();
  const rows = await db.selectFrom('products').select('id').where('id', 'in', candidates).execute();
  return new Set(rows.map((r) => r.id));
}

export const insertProduct = (trx: Db, row: ProductRow) => trx.insertInto('products').values(row).execute();

export async function updateProduct(trx: Db, id: string, values: Partial<ProductValues>): Promise<boolean> {
  const result = await trx.updateTable('products').set(values).where('id', '=', id).executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

export const deleteProduct = (trx: Db, id: string) => trx.deleteFrom('products').where('id', '=', id).execute();

/** How many licenses are for the product, and how many orders contain it. */
export async function countProductReferences(db: Db, id: string): Promise<{ licenses: number; orders: number; releases: number }> {
  const licenses = await db
    .selectFrom('licenses')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('product_id', '=', id)
    .executeTakeFirstOrThrow();
  const orders = await db
    .selectFrom('order_products')
    .select((eb) => eb.fn.count<number>('order_id').distinct().as('n'))
    .where('product_id', '=', id)
    .executeTakeFirstOrThrow();
  const releases = await db
    .selectFrom('releases')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('product_id', '=', id)
    .executeTakeFirstOrThrow();
  return { licenses: licenses.n, orders: orders.n, releases: releases.n };
}
