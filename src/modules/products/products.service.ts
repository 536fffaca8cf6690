import type { Db } from '../../db/database.js';
import { isForeignKeyViolation, isUniqueViolation } from '../../db/storage/errors.js';
import { forEachBatch, isPaged, listKeyOf } from '../../db/list-queries.js';
import type { ProductRow, ProductTierRow } from '../../db/schema.js';
import { badRequest, conflict, notFound } from '../../http/errors.js';
import type { Tier } from '../license-settings/license-settings.schemas.js';
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

const toTier = (row: ProductTierRow): Tier => ({
  code: row.code,
  name: row.name,
  features: parseFeatures(row.features),
  marketplaceResourceId: row.marketplace_resource_id,
  polymartProductId: row.polymart_product_id,
});

const toProduct = (row: ProductRow, tiers: readonly ProductTierRow[] = []): Product => ({
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
  tiers: tiers.map(toTier),
  updatesForDays: row.updates_for_days,
  refuseUnsupportedVersions: row.refuse_unsupported_versions === 1,
  createdAtEpochMillis: row.created_at,
});

/** The products of `rows` with their tiers (one query for all). */
async function withTiers(db: Db, rows: readonly ProductRow[]): Promise<Product[]> {
  const tiers = await repo.tiersOf(db, rows.map((r) => r.id));
  return rows.map((row) => toProduct(row, tiers.get(row.id)));
}

/**
 * Writes the product's tiers when given (PUT: omitted is []): codes unique in the product
 * (400), marketplace ids unique across every product and tier (409), and no tier that
 * licenses hold removed (409 naming how many).
 */
async function saveTiers(trx: Db, productId: string, body: Pick<ProductBody, 'tiers' | 'marketplaceResourceId' | 'polymartProductId'>, given: boolean): Promise<void> {
  const tiers = body.tiers ?? [];
  const codes = tiers.map((t) => t.code);
  const repeated = codes.find((code, i) => codes.indexOf(code) !== i);
  if (repeated !== undefined) throw badRequest(`tiers: code ${repeated} is given twice`);
  for (const [field, column] of [['marketplaceResourceId', 'marketplace_resource_id'], ['polymartProductId', 'polymart_product_id']] as const) {
    const ids = [body[field], ...tiers.map((t) => t[field])].filter((id): id is string => typeof id === 'string');
    const twice = ids.find((id, i) => ids.indexOf(id) !== i);
    const taken = twice ?? (await repo.marketplaceIdHolders(trx, column, ids, productId))[0];
    if (taken !== undefined) throw conflict(`${field} ${taken} is already used by another product or tier`);
  }
  if (!given) return;
  const stored = (await repo.tiersOf(trx, [productId])).get(productId) ?? [];
  const removed = stored.map((t) => t.code).filter((code) => !codes.includes(code));
  const holding = await repo.countLicensesAtTiers(trx, productId, removed);
  if (holding > 0) {
    throw conflict(`Tier ${removed.join(', ')} is held by ${holding} license${holding === 1 ? '' : 's'}: move them to another tier first`);
  }
  await uniqueMarketplaceIds(body as ProductBody, () =>
    repo.replaceTiers(
      trx,
      productId,
      tiers.map((t, position) => ({
        product_id: productId,
        code: t.code,
        position,
        name: t.name,
        features: storeFeatures(t.features),
        marketplace_resource_id: t.marketplaceResourceId ?? null,
        polymart_product_id: t.polymartProductId ?? null,
      })),
    ),
  );
}

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
    const tierIndex = (err as Error).message.includes('product_tiers');
    if ((err as Error).message.includes('polymart_product_id')) {
      if (tierIndex) throw conflict('A tier polymartProductId is already used by another product or tier');
      throw conflict(`polymartProductId ${body.polymartProductId ?? ''} is already used by another product`);
    }
    if (tierIndex) throw conflict('A tier marketplaceResourceId is already used by another product or tier');
    throw conflict(`marketplaceResourceId ${body.marketplaceResourceId ?? ''} is already used by another product`);
  }
}

export async function getProduct(db: Db, id: string): Promise<Product> {
  const row = await repo.findProduct(db, id);
  if (!row) throw notFound('Product not found');
  const [product] = await withTiers(db, [row]);
  return product!;
}

/** The page asked for, and how many products match the filter in all. */
export async function listProducts(db: Db, query: ProductQuery): Promise<Listed<Product>> {
  const filter = { ...query, limit: query.limit === undefined ? undefined : Math.min(query.limit, MAX_PAGE_SIZE) };
  const rows = await repo.listProducts(db, filter);
  const total = isPaged(filter) ? await repo.countProducts(db, filter) : rows.length;
  return { records: await withTiers(db, rows), total };
}

/** Every product's id and name (GET /products/names, for staff who read licenses). */
export const listProductNames = (db: Db): Promise<ProductName[]> => repo.listProductNames(db);

/** Every product matching the filter, written to `writer` batch by batch (call inside one snapshot). */
export async function streamProducts(db: Db, query: ProductQuery, writer: ListWriter<Product>): Promise<void> {
  const { limit: _limit, offset: _offset, ...filter } = query;
  writer.start(await repo.countProducts(db, filter));
  await forEachBatch(
    async (page) => withTiers(db, await repo.listProducts(db, { ...filter, ...page })),
    listKeyOf(repo.PRODUCT_SORT, filter),
    (records) => writer.write(records),
  );
}

/** The product whose marketplaceResourceId is `resourceId`, if any (for the marketplace webhook). */
export async function findProductByMarketplaceResourceId(db: Db, resourceId: string): Promise<Product | undefined> {
  const row = await repo.findProductByMarketplaceResourceId(db, resourceId);
  return row && getProduct(db, row.id);
}

/** The product whose polymartProductId is `polymartId`, if any (for the Polymart integration). */
export async function findProductByPolymartId(db: Db, polymartId: string): Promise<Product | undefined> {
  const row = await repo.findProductByPolymartId(db, polymartId);
  return row && getProduct(db, row.id);
}

/** What a marketplace id sells: a product, at a tier when the id is a tier's (null: the base). */
export interface Sale {
  product: Product;
  tier: string | null;
}

/** The product (and tier) a BuiltByBit resource id or a Polymart product id sells, if any. */
export async function findSale(db: Db, marketplace: 'builtbybit' | 'polymart', id: string): Promise<Sale | undefined> {
  const column = marketplace === 'builtbybit' ? 'marketplace_resource_id' : 'polymart_product_id';
  const row = column === 'marketplace_resource_id' ? await repo.findProductByMarketplaceResourceId(db, id) : await repo.findProductByPolymartId(db, id);
  if (row) return { product: await getProduct(db, row.id), tier: null };
  const tier = await repo.findTierByMarketplaceId(db, column, id);
  return tier && { product: await getProduct(db, tier.product_id), tier: tier.code };
}

export async function createProduct(trx: Db, actor: string, body: ProductBody): Promise<Product> {
  const row: ProductRow = { id: newId(), ...toValues(body), created_at: clock.now() };
  await uniqueMarketplaceIds(body, () => repo.insertProduct(trx, row));
  await saveTiers(trx, row.id, body, true);
  const product = await getProduct(trx, row.id);
  await recordAudit(trx, actor, 'products.create', product);
  return product;
}

/** Existing licenses keep their limits: only licenses created later inherit new defaults. */
export async function updateProduct(trx: Db, actor: string, id: string, body: ProductBody): Promise<Product> {
  const updated = await uniqueMarketplaceIds(body, () => repo.updateProduct(trx, id, toValues(body)));
  if (!updated) throw notFound('Product not found');
  await saveTiers(trx, id, body, true);
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
    Object.entries(values).filter(([column]) => Object.keys(patch).some((field) => PATCH_COLUMNS[field as keyof typeof PATCH_COLUMNS] === column)),
  ) as Partial<repo.ProductValues>;
  if (Object.keys(given).length > 0) await uniqueMarketplaceIds(merged, () => repo.updateProduct(trx, id, given));
  await saveTiers(trx, id, merged, patch.tiers !== undefined);
  const product = await getProduct(trx, id);
  await recordAudit(trx, actor, 'products.update', product);
  return product;
}

/** The column each body field is stored in. */
const PATCH_COLUMNS: Record<Exclude<keyof ProductBody, 'tiers'>, keyof repo.ProductValues> = {
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
