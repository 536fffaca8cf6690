import type { Db } from '../../db/database.js';
import { isForeignKeyViolation, isUniqueViolation } from '../../db/storage/errors.js';
import { forEachBatch, isPaged, listKeyOf } from '../../db/list-queries.js';
import type { ProductRow } from '../../db/schema.js';
import { conflict, notFound } from '../../http/errors.js';
import type { Listed } from '../../http/list-response.js';
import type { ListWriter } from '../../http/list-stream.js';
import { MAX_PAGE_SIZE } from '../../http/schemas.js';
import { newId } from '../../lib/ids.js';
import { referencedByMessage } from '../../lib/references.js';
import { recordAudit } from '../audit/audit.service.js';
import * as repo from './products.repository.js';
import type { Product, ProductBody, ProductName, ProductPatch, ProductQuery } from './products.schemas.js';
import type { ExpiryBasis } from '../license-settings/license-settings.bounds.js';
import { assertExpiryPolicy, parseFeatures, parseSharingAlert, sharingAlertColumn, storeFeatures } from '../license-settings/license-settings.js';
import { clock } from '../../lib/clock.js';

const toProduct = (row: ProductRow): Product => ({
  id: row.id,
  name: row.name,
  productType: row.product_type,
  description: row.description,
  price: row.price,
  requiresLicense: row.requires_license === 1,
  isSubscription: row.is_subscription === 1,
  recurringPeriodDays: row.recurring_period_days,
  maxIps: row.max_ips,
  maxHwids: row.max_hwids,
  marketplaceResourceId: row.marketplace_resource_id,
  polymartProductId: row.polymart_product_id,
  slotTimeoutMinutes: row.slot_timeout_minutes,
  selfReleaseLimit: row.self_release_limit,
  sharingAlert: parseSharingAlert(row.sharing_alert),
  expiryBasis: row.expiry_basis as ExpiryBasis,
  validForDays: row.valid_for_days,
  graceDays: row.grace_days,
  features: parseFeatures(row.features) as Product['features'],
  revealReasons: row.reveal_reasons === 1,
  updatesForDays: row.updates_for_days,
  refuseUnsupportedVersions: row.refuse_unsupported_versions === 1,
  createdAtEpochMillis: row.created_at,
});

/** Full replacement: omitted optional fields become null. */
const toValues = (body: ProductBody): repo.ProductValues => {
  const expiryBasis = body.expiryBasis ?? 'fixed';
  const validForDays = body.validForDays ?? null;
  assertExpiryPolicy(expiryBasis, validForDays);
  return {
  name: body.name,
  product_type: body.productType,
  description: body.description ?? null,
  price: body.price,
  requires_license: body.requiresLicense ? 1 : 0,
  is_subscription: body.isSubscription ? 1 : 0,
  recurring_period_days: body.recurringPeriodDays ?? null,
  max_ips: body.maxIps ?? null,
  max_hwids: body.maxHwids ?? null,
  marketplace_resource_id: body.marketplaceResourceId ?? null,
  polymart_product_id: body.polymartProductId ?? null,
  slot_timeout_minutes: body.slotTimeoutMinutes ?? null,
  self_release_limit: body.selfReleaseLimit ?? null,
  sharing_alert: sharingAlertColumn(body.sharingAlert),
  expiry_basis: expiryBasis,
  valid_for_days: validForDays,
  grace_days: body.graceDays ?? null,
  features: storeFeatures(body.features),
  reveal_reasons: body.revealReasons ? 1 : 0,
  updates_for_days: body.updatesForDays ?? null,
  refuse_unsupported_versions: body.refuseUnsupportedVersions ? 1 : null,
  };
};

/** The product as a full body: what a PATCH merges its fields into. */
const toBody = (p: Product): ProductBody => {
  const { id: _id, createdAtEpochMillis: _created, ...body } = p;
  return body as ProductBody;
};

/**
 * Runs a write; a marketplaceResourceId or polymartProductId another product holds (also
 * under a race) is a 409. Both drivers name the column's index in the violation's message.
 */
async function uniqueMarketplaceIds<T>(body: ProductBody, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (err) {
    if (!isUniqueViolation(err)) throw err;
    if ((err as Error).message.includes('polymart_product_id')) {
      throw conflict(`polymartProductId ${body.polymartProductId ?? ''} is already used by another product`);
    }
    throw conflict(`marketplaceResourceId ${body.marketplaceResourceId ?? ''} is already used by another product`);
  }
}

export async function getProduct(db: Db, id: string): Promise<Product> {
  const row = await repo.findProduct(db, id);
  if (!row) throw notFound('Product not found');
  return toProduct(row);
}

/** The page asked for, and how many products match the filter in all. */
export async function listProducts(db: Db, query: ProductQuery): Promise<Listed<Product>> {
  const filter = { ...query, limit: query.limit === undefined ? undefined : Math.min(query.limit, MAX_PAGE_SIZE) };
  const rows = await repo.listProducts(db, filter);
  const total = isPaged(filter) ? await repo.countProducts(db, filter) : rows.length;
  return { records: rows.map(toProduct), total };
}

/** Every product's id and name (GET /products/names, for staff who read licenses). */
export const listProductNames = (db: Db): Promise<ProductName[]> => repo.listProductNames(db);

/** Every product matching the filter, written to `writer` batch by batch (call inside one snapshot). */
export async function streamProducts(db: Db, query: ProductQuery, writer: ListWriter<Product>): Promise<void> {
  const { limit: _limit, offset: _offset, ...filter } = query;
  writer.start(await repo.countProducts(db, filter));
  await forEachBatch(
    async (page) => (await repo.listProducts(db, { ...filter, ...page })).map(toProduct),
    listKeyOf(repo.PRODUCT_SORT, filter),
    (records) => writer.write(records),
  );
}

/** The product whose marketplaceResourceId is `resourceId`, if any (for the marketplace webhook). */
export async function findProductByMarketplaceResourceId(db: Db, resourceId: string): Promise<Product | undefined> {
  const row = await repo.findProductByMarketplaceResourceId(db, resourceId);
  return row && toProduct(row);
}

/** The product whose polymartProductId is `polymartId`, if any (for the Polymart integration). */
export async function findProductByPolymartId(db: Db, polymartId: string): Promise<Product | undefined> {
  const row = await repo.findProductByPolymartId(db, polymartId);
  return row && toProduct(row);
}

export async function createProduct(trx: Db, actor: string, body: ProductBody): Promise<Product> {
  const row: ProductRow = { id: newId(), ...toValues(body), created_at: clock.now() };
  await uniqueMarketplaceIds(body, () => repo.insertProduct(trx, row));
  const product = toProduct(row);
  await recordAudit(trx, actor, 'products.create', product);
  return product;
}

/** Existing licenses keep their limits: only licenses created later inherit new defaults. */
export async function updateProduct(trx: Db, actor: string, id: string, body: ProductBody): Promise<Product> {
  const updated = await uniqueMarketplaceIds(body, () => repo.updateProduct(trx, id, toValues(body)));
  if (!updated) throw notFound('Product not found');
  const product = await getProduct(trx, id);
  await recordAudit(trx, actor, 'products.update', product);
  return product;
}

/** Sets the fields given, keeps the others; audited as `products.update`. */
export async function patchProduct(trx: Db, actor: string, id: string, patch: ProductPatch): Promise<Product> {
  const merged = { ...toBody(await getProduct(trx, id)), ...patch } as ProductBody;
  const values = toValues(merged); // checks the merged record as a whole (expiryBasis with validForDays)
  // Only the columns of the fields given are written: a concurrent PATCH of other fields is not undone.
  const given = Object.fromEntries(
    Object.entries(values).filter(([column]) => Object.keys(patch).some((field) => PATCH_COLUMNS[field as keyof ProductBody] === column)),
  ) as Partial<repo.ProductValues>;
  await uniqueMarketplaceIds(merged, () => repo.updateProduct(trx, id, given));
  const product = await getProduct(trx, id);
  await recordAudit(trx, actor, 'products.update', product);
  return product;
}

/** The column each body field is stored in. */
const PATCH_COLUMNS: Record<keyof ProductBody, keyof repo.ProductValues> = {
  name: 'name',
  productType: 'product_type',
  description: 'description',
  price: 'price',
  requiresLicense: 'requires_license',
  isSubscription: 'is_subscription',
  recurringPeriodDays: 'recurring_period_days',
  maxIps: 'max_ips',
  maxHwids: 'max_hwids',
  marketplaceResourceId: 'marketplace_resource_id',
  polymartProductId: 'polymart_product_id',
  slotTimeoutMinutes: 'slot_timeout_minutes',
  selfReleaseLimit: 'self_release_limit',
  expiryBasis: 'expiry_basis',
  validForDays: 'valid_for_days',
  graceDays: 'grace_days',
  features: 'features',
  sharingAlert: 'sharing_alert',
  revealReasons: 'reveal_reasons',
  updatesForDays: 'updates_for_days',
  refuseUnsupportedVersions: 'refuse_unsupported_versions',
};

/** Deletes a product no license or order refers to; the entry holds the record as it was. */
export async function deleteProduct(trx: Db, actor: string, id: string): Promise<void> {
  const product = await getProduct(trx, id);
  const referenced = referencedByMessage('Product', await repo.countProductReferences(trx, id));
  if (referenced) throw conflict(referenced);
  try {
    await repo.deleteProduct(trx, id);
  } catch (err) {
    // A license or order created for it since the count above.
    if (isForeignKeyViolation(err)) throw conflict('Product is referenced by a license, order or release');
    throw err;
  }
  await recordAudit(trx, actor, 'products.delete', product);
}
