// The marketplace webhook: find or create the buyer, return their active license for
// the product or issue a new one with its order. Calls that may create are serialised
// per buyer, so concurrent identical calls create one customer, one license and one
// order; a buyer who holds an active license already is answered without the lock.
import type { Db } from '../../db/database.js';
import { isUniqueViolation } from '../../db/storage/errors.js';
import type { Storage } from '../../db/storage/storage.js';
import { HttpError } from '../../http/errors.js';
import { safeEqual } from '../../lib/secrets.js';
import { recordAudit } from '../audit/audit.service.js';
import { createCustomer, findCustomerByMarketplaceUserId } from '../customers/customers.service.js';
import { findActiveLicense, insertLicense, withoutHistory, type LicenseWithoutHistory } from '../licenses/licenses.service.js';
import { createOrder } from '../orders/orders.service.js';
import { findProductByMarketplaceResourceId } from '../products/products.service.js';
import type { Product } from '../products/products.schemas.js';
import type { WebhookRequest } from './marketplace.schemas.js';

export const MARKETPLACE_ACTOR = 'marketplace';
const DAY_MS = 24 * 60 * 60 * 1000;
const REQUIRED = ['user_id', 'resource_id', 'secret'] as const;
const ATTEMPTS = 3;

export interface WebhookContext {
  storage: Storage;
  secret: string | null;
}

/** Form fields are strings; JSON may carry numeric ids, taken as their text. Empty = absent. */
function field(body: Record<string, unknown>, name: string): string | null {
  const value = body[name];
  if (typeof value === 'string') return value.trim() === '' ? null : value;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return null;
}

async function reject(ctx: WebhookContext, status: number, message: string, data: object): Promise<never> {
  await ctx.storage.transaction((trx) => recordAudit(trx, MARKETPLACE_ACTOR, 'marketplace.license.reject', data));
  throw new HttpError(status, message);
}

/** Steps 1 and 2 of SPEC.md: the secret and the product. Rejections are audited. */
async function admit(ctx: WebhookContext, body: Record<string, unknown>): Promise<{ request: WebhookRequest; product: Product }> {
  if (ctx.secret === null) throw new HttpError(503, 'Marketplace webhook is not configured');
  const missing = REQUIRED.filter((name) => field(body, name) === null);
  if (missing.length > 0) throw new HttpError(400, `Missing required form fields: ${missing.join(', ')}`);
  const request: WebhookRequest = {
    userId: field(body, 'user_id')!,
    resourceId: field(body, 'resource_id')!,
    steamId: field(body, 'steam_id'),
    versionId: field(body, 'version_id'),
    versionNumber: field(body, 'version_number'),
  };
  const ids = { user_id: request.userId, resource_id: request.resourceId };
  if (!safeEqual(field(body, 'secret')!, ctx.secret)) {
    return reject(ctx, 401, 'Invalid secret', { ...ids, reason: 'invalid secret' });
  }
  const product = await findProductByMarketplaceResourceId(ctx.storage.db, request.resourceId);
  if (!product) {
    return reject(ctx, 404, `No product found with marketplace resource ID ${request.resourceId}`, {
      ...ids,
      reason: 'unknown resource',
    });
  }
  return { request, product };
}

/** An audit entry's data: the license (without its attempt history) and what the marketplace sent. */
const entry = (request: WebhookRequest, license: LicenseWithoutHistory) => ({
  ...license,
  marketplace: {
    user_id: request.userId,
    resource_id: request.resourceId,
    version_id: request.versionId,
    version_number: request.versionNumber,
  },
});

/** Steps 3 and 4: the buyer's customer record and active license for the product, where they exist. */
async function findBuyer(trx: Db, request: WebhookRequest, product: Product) {
  const customer = await findCustomerByMarketplaceUserId(trx, request.userId);
  const license = customer ? await findActiveLicense(trx, customer.id, product.id) : undefined;
  return { customer, license };
}

async function recordReuse(trx: Db, request: WebhookRequest, license: LicenseWithoutHistory): Promise<LicenseWithoutHistory> {
  await recordAudit(trx, MARKETPLACE_ACTOR, 'marketplace.license.reuse', entry(request, license));
  return license;
}

/** Steps 3 to 6, in one transaction holding the buyer's lock. */
async function issue(trx: Db, ctx: WebhookContext, request: WebhookRequest, product: Product): Promise<LicenseWithoutHistory> {
  await ctx.storage.lock(trx, `marketplace:${request.userId}`);
  const found = await findBuyer(trx, request, product); // another call may have issued it meanwhile
  if (found.license) return recordReuse(trx, request, found.license);
  const customer =
    found.customer ??
    (await createCustomer(trx, MARKETPLACE_ACTOR, {
      name: `Marketplace user ${request.userId}`,
      email: `${request.userId}@marketplace.invalid`,
      socials: { MarketplaceID: request.userId, ...(request.steamId ? { SteamID: request.steamId } : {}) },
    }));

  const expiresAtEpochMillis =
    product.isSubscription && product.recurringPeriodDays ? Date.now() + product.recurringPeriodDays * DAY_MS : null;
  // marketplace.license.create below is this license's audit entry.
  const license = withoutHistory(
    await insertLicense(trx, {
      productId: product.id,
      customerId: customer.id,
      expiresAtEpochMillis, // limits are left out so they come from the product
    }),
  );
  await createOrder(trx, MARKETPLACE_ACTOR, {
    customerId: customer.id,
    productIds: [product.id],
    totalAmount: product.price,
    licenseIds: [license.id],
  });
  await recordAudit(trx, MARKETPLACE_ACTOR, 'marketplace.license.create', entry(request, license));
  return license;
}

/** Handles one webhook call; returns the license key or throws an HttpError. */
export async function handleWebhook(ctx: WebhookContext, body: Record<string, unknown>): Promise<string> {
  const { request, product } = await admit(ctx, body);
  // Most calls come from buyers who hold their license already: that needs no lock, so
  // such calls of one buyer do not wait for each other.
  const reused = await ctx.storage.transaction(async (trx) => {
    const { license } = await findBuyer(trx, request, product);
    return license && recordReuse(trx, request, license);
  });
  if (reused) return reused.id;
  for (let attempt = 1; ; attempt += 1) {
    try {
      const license = await ctx.storage.transaction((trx) => issue(trx, ctx, request, product));
      return license.id;
    } catch (err) {
      // Another instance created the buyer, or held SQLite's write lock, first: the
      // next attempt sees its work and reuses it.
      const raced = isUniqueViolation(err) || ctx.storage.isRetryable(err) || (err instanceof HttpError && err.statusCode === 409);
      if (attempt >= ATTEMPTS || !raced) throw err;
    }
  }
}
