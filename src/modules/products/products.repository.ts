import type { Db } from '../../db/database.js';
import { afterKey, containsIgnoringCase, withPage, withSort, type Page, type Sort, type SortColumns } from '../../db/list-queries.js';
import type { ProductRow, ProductTierRow } from '../../db/schema.js';

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

// ---- tiers ------------------------------------------------------------------------

/** The product's tier named `code`. */
export const findTier = (db: Db, productId: string, code: string) =>
  db.selectFrom('product_tiers').selectAll().where('product_id', '=', productId).where('code', '=', code).executeTakeFirst();

/** The tiers of each of `productIds`, in position order. */
export async function tiersOf(db: Db, productIds: readonly string[]): Promise<Map<string, ProductTierRow[]>> {
  const result = new Map<string, ProductTierRow[]>(productIds.map((id) => [id, []]));
  for (let i = 0; i < productIds.length; i += 500) {
    const rows = await db
      .selectFrom('product_tiers')
      .selectAll()
      .where('product_id', 'in', productIds.slice(i, i + 500))
      .orderBy('product_id')
      .orderBy('position')
      .execute();
    for (const row of rows) result.get(row.product_id)?.push(row);
  }
  return result;
}

/** Replaces the product's tiers with `rows`, in order. */
export async function replaceTiers(trx: Db, productId: string, rows: readonly ProductTierRow[]): Promise<void> {
  await trx.deleteFrom('product_tiers').where('product_id', '=', productId).execute();
  if (rows.length > 0) await trx.insertInto('product_tiers').values([...rows]).execute();
}

export type MarketplaceColumn = 'marketplace_resource_id' | 'polymart_product_id';

/** The tier that sells under a marketplace id, if any. */
export const findTierByMarketplaceId = (db: Db, column: MarketplaceColumn, id: string) =>
  db.selectFrom('product_tiers').selectAll().where(column, '=', id).executeTakeFirst();

/** Who else holds one of `ids` in `column`, other than the product `productId` (itself or its tiers): a product's or a tier's. */
export async function marketplaceIdHolders(db: Db, column: MarketplaceColumn, ids: readonly string[], productId: string): Promise<string[]> {
  if (ids.length === 0) return [];
  const products = await db.selectFrom('products').select(column).where(column, 'in', [...ids]).where('id', '!=', productId).execute();
  const tiers = await db.selectFrom('product_tiers').select(column).where(column, 'in', [...ids]).where('product_id', '!=', productId).execute();
  return [...products, ...tiers].map((row) => (row as Record<string, string>)[column]!);
}

/** How many licenses of the product are at each of `codes` (a tier that licenses hold cannot go). */
export async function countLicensesAtTiers(db: Db, productId: string, codes: readonly string[]): Promise<number> {
  if (codes.length === 0) return 0;
  const row = await db
    .selectFrom('licenses')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('product_id', '=', productId)
    .where('tier', 'in', [...codes])
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

