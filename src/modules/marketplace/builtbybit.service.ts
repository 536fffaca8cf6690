// BuiltByBit's purchase webhook: its "Custom" template's fields translated into a purchase
// of the one rule (sales/purchase-rule.ts), once per purchase identity. An unknown resource
// is acknowledged (200) and audited: another status would only make BuiltByBit retry.
import type { Storage } from '../../db/storage/storage.js';
import { badRequest, HttpError } from '../../http/errors.js';
import { safeEqual } from '../../lib/secrets.js';
import { recordAudit } from '../audit/audit.service.js';
import { findCustomerByMarketplaceUserId } from '../customers/customers.service.js';
import { findSale } from '../products/products.service.js';
import type { BuiltByBitAnswer, BuiltByBitPurchaseBody } from './builtbybit.schemas.js';
import { actOnce, type PurchaseIdentity } from './builtbybit.identities.js';
import { MARKETPLACE_ACTOR, marketplaceCustomer } from './marketplace.service.js';
import { issue, retryingRaces } from './purchase.service.js';

const TAG = { marketplace: 'builtbybit' } as const;

/** An id as text; an empty one is absent (a template placeholder BuiltByBit left empty, such as `{addon_id}`). */
const idText = (value: string | number | undefined): string | null => {
  if (value === undefined) return null;
  const text = String(value).trim();
  return text === '' ? null : text;
};

/** `price` as a number: a decimal (number or text); empty or omitted: undefined (the product's price). */
function amountOf(price: string | number | undefined): number | undefined {
  if (price === undefined || price === '') return undefined;
  const amount = typeof price === 'number' ? price : /^\s*[0-9]+(\.[0-9]+)?\s*$/.test(price) ? Number(price) : NaN;
  if (!Number.isFinite(amount) || amount < 0) throw badRequest('price must be a decimal number of at least 0');
  return amount;
}

export async function handleBuiltByBitPurchase(storage: Storage, secret: string | null, body: BuiltByBitPurchaseBody): Promise<BuiltByBitAnswer> {
  if (secret === null) throw new HttpError(503, 'Marketplace webhook is not configured');
  const userId = idText(body.user_id);
  const resourceId = idText(body.resource_id);
  if (userId === null) throw badRequest('user_id must not be empty');
  if (resourceId === null) throw badRequest('resource_id must not be empty');
  const identity: PurchaseIdentity = { resourceId, addonId: idText(body.addon_id), userId, purchaseDate: Number(body.purchase_date) };
  const amount = amountOf(body.price);
  const sent = { user_id: userId, resource_id: resourceId, addon_id: identity.addonId, purchase_date: identity.purchaseDate };
  if (!safeEqual(body.secret, secret)) {
    await storage.transaction((trx) => recordAudit(trx, MARKETPLACE_ACTOR, 'marketplace.license.reject', { ...TAG, ...sent, reason: 'invalid secret' }));
    throw new HttpError(401, 'Invalid secret');
  }
  return retryingRaces(storage, (trx) =>
    actOnce<BuiltByBitAnswer>(trx, identity, async () => {
      // The addon, when it names a product or tier, is what was sold; else the resource.
      const sale = (identity.addonId !== null && (await findSale(trx, 'builtbybit', identity.addonId))) || (await findSale(trx, 'builtbybit', resourceId));
      if (!sale) {
        await recordAudit(trx, MARKETPLACE_ACTOR, 'marketplace.license.reject', { ...TAG, ...sent, reason: 'unknown resource' });
        return { ignored: 'unknown resource' as const };
      }
      const issued = await issue(trx, storage, {
        actor: MARKETPLACE_ACTOR,
        product: sale.product,
        tier: sale.tier,
        via: 'purchase',
        ...(amount !== undefined && { amount }),
        lockKey: `marketplace:${userId}`,
        findCustomer: (db) => findCustomerByMarketplaceUserId(db, userId),
        newCustomer: marketplaceCustomer(userId),
        entry: (license) => ({ ...license, ...TAG, builtbybit: sent }),
        auditTag: TAG,
      });
      return { licenseKey: issued.license.id, created: issued.created, step: issued.step, orderId: issued.orderId };
    }),
  );
}
