// The marketplace webhook: find or create the buyer, return their active license for
// the product or issue a new one with its order (purchase.service.ts). Calls that may
// create are serialised per buyer, so concurrent identical calls create one customer, one
// license and one order; a buyer who holds an active license already is answered without
// the lock.
import type { Storage } from '../../db/storage/storage.js';
import { HttpError } from '../../http/errors.js';
import { safeEqual } from '../../lib/secrets.js';
import { recordAudit } from '../audit/audit.service.js';
import { findCustomerByMarketplaceUserId } from '../customers/customers.service.js';
import { findSale, type Sale } from '../products/products.service.js';
import type { WebhookRequest } from './marketplace.schemas.js';
import { purchaseLicense, type Purchase } from './purchase.service.js';

export const MARKETPLACE_ACTOR = 'marketplace';
const REQUIRED = ['user_id', 'resource_id', 'secret'] as const;

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
async function admit(ctx: WebhookContext, body: Record<string, unknown>): Promise<{ request: WebhookRequest; sale: Sale }> {
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
  const sale = await findSale(ctx.storage.db, 'builtbybit', request.resourceId);
  if (!sale) {
    return reject(ctx, 404, `No product found with marketplace resource ID ${request.resourceId}`, {
      ...ids,
      reason: 'unknown resource',
    });
  }
  return { request, sale };
}

/** The record the BuiltByBit routes create for a buyer seen for the first time (DECISIONS: the placeholder's). */
export const marketplaceCustomer = (userId: string, steamId: string | null = null) => ({
  name: `Marketplace user ${userId}`,
  email: `${userId}@marketplace.invalid`,
  socials: { MarketplaceID: userId, ...(steamId ? { SteamID: steamId } : {}) },
});

/** The webhook's request as a placeholder request of the rule: the buyer is found by socials.MarketplaceID. */
function purchaseOf(request: WebhookRequest, sale: Sale): Purchase {
  return {
    actor: MARKETPLACE_ACTOR,
    product: sale.product,
    tier: sale.tier,
    via: 'placeholder',
    lockKey: `marketplace:${request.userId}`,
    findCustomer: (db) => findCustomerByMarketplaceUserId(db, request.userId),
    newCustomer: marketplaceCustomer(request.userId, request.steamId),
    // The license (without its attempt history) and what the marketplace sent.
    entry: (license) => ({
      ...license,
      marketplace: {
        user_id: request.userId,
        resource_id: request.resourceId,
        version_id: request.versionId,
        version_number: request.versionNumber,
      },
    }),
  };
}

/** Handles one webhook call; returns the license key or throws an HttpError. */
export async function handleWebhook(ctx: WebhookContext, body: Record<string, unknown>): Promise<string> {
  const { request, sale } = await admit(ctx, body);
  const { license } = await purchaseLicense(ctx.storage, purchaseOf(request, sale));
  return license.id;
}
