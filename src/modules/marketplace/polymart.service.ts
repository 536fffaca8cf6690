// Polymart (DECISIONS.md "Polymart"): its webhook events and its license-key placeholder,
// translated into the one purchase of purchase.service.ts, and its refunds into
// revocations. Every entry these write carries `"marketplace": "polymart"` in its data.
// Answers are 200 whatever the outcome: any other status makes Polymart retry.
import type { Db } from '../../db/database.js';
import type { Storage } from '../../db/storage/storage.js';
import { badRequest, HttpError } from '../../http/errors.js';
import { recordAudit } from '../audit/audit.service.js';
import { findCustomerByPolymartUserId } from '../customers/customers.service.js';
import { activeLicenseIds, revokeLicense } from '../licenses/licenses.service.js';
import type { Product } from '../products/products.schemas.js';
import { findProductByPolymartId } from '../products/products.service.js';
import { answerOnce, type Answer } from './polymart.nonces.js';
import { issue, purchaseLicense, retryingRaces, type Purchase } from './purchase.service.js';

export const POLYMART_ACTOR = 'polymart';
const TAG = { marketplace: 'polymart' } as const;
/** How far a placeholder request's `time` may be from the server's clock. */
export const PLACEHOLDER_MAX_SKEW_SECONDS = 300;

/** A Polymart buyer and product, ids as text. */
export interface PolymartIds {
  userId: string;
  productId: string;
}

export interface WebhookDelivery {
  event: string;
  nonce: string;
  payload?: Record<string, unknown>;
}

export interface PlaceholderRequest {
  user: string | number;
  product: string | number;
  nonce: string;
  time: number;
  placeholder: string;
  license?: string;
  test?: boolean;
}

/** An id as text: Polymart sends some as numbers (the schemas allow both). */
const idText = (value: string | number): string => String(value);

/** `payload.<part>.id`, a non-empty string or a whole number, as text; 400 naming it otherwise. */
function payloadId(payload: Record<string, unknown> | undefined, part: 'product' | 'user'): string {
  const name = `payload.${part}.id`;
  const holder = payload?.[part];
  const value = holder !== null && typeof holder === 'object' ? (holder as Record<string, unknown>).id : undefined;
  if (value === undefined || value === null) throw badRequest(`${name} is required`);
  if (typeof value === 'string' && value.length > 0 && value.length <= 100) return value;
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) return String(value);
  throw badRequest(`${name} must be a non-empty string (at most 100 characters) or a whole number`);
}

/** A Polymart buyer's purchase: the customer is found by socials.PolymartID. */
function purchaseOf(ids: PolymartIds, product: Product, sent: object): Purchase {
  return {
    actor: POLYMART_ACTOR,
    product,
    lockKey: `polymart:${ids.userId}`,
    findCustomer: (db) => findCustomerByPolymartUserId(db, ids.userId),
    newCustomer: {
      name: `Polymart user ${ids.userId}`,
      email: `${ids.userId}@polymart.invalid`,
      socials: { PolymartID: ids.userId },
    },
    entry: (license) => ({ ...license, ...TAG, polymart: { user_id: ids.userId, product_id: ids.productId, ...sent } }),
    auditTag: TAG,
  };
}

const rejectEntry = (ids: PolymartIds, reason: string, sent: object) => ({
  ...TAG,
  user_id: ids.userId,
  product_id: ids.productId,
  reason,
  ...sent,
});

/** `product.user.purchase`: the buyer's license, created or reused; an unknown product is acknowledged and audited. */
async function onPurchase(trx: Db, storage: Storage, ids: PolymartIds, sent: object): Promise<Answer> {
  const product = await findProductByPolymartId(trx, ids.productId);
  if (!product) {
    await recordAudit(trx, POLYMART_ACTOR, 'marketplace.license.reject', rejectEntry(ids, 'unknown product', sent));
    return { status: 200, body: { ignored: 'unknown product' } };
  }
  const { license, created } = await issue(trx, storage, purchaseOf(ids, product, sent));
  return { status: 200, body: { licenseKey: license.id, created } };
}

/**
 * `product.user.purchaseRemoved` (refund or chargeback): every license of the buyer for
 * the product that has not expired is revoked, as a staff revocation would (reason `refund`).
 */
async function onPurchaseRemoved(trx: Db, storage: Storage, ids: PolymartIds, sent: object): Promise<Answer> {
  const product = await findProductByPolymartId(trx, ids.productId);
  const customer = product && (await findCustomerByPolymartUserId(trx, ids.userId));
  if (!product || !customer) {
    const reason = product ? 'unknown customer' : 'unknown product';
    await recordAudit(trx, POLYMART_ACTOR, 'marketplace.license.reject', rejectEntry(ids, reason, sent));
    return { status: 200, body: { revokedLicenseIds: [], ignored: reason } };
  }
  await storage.lock(trx, `polymart:${ids.userId}`); // not while a purchase of this buyer issues a license
  const revoked = await activeLicenseIds(trx, customer.id, product.id);
  for (const id of revoked) await revokeLicense(trx, POLYMART_ACTOR, id, 'refund', 1, TAG);
  await recordAudit(trx, POLYMART_ACTOR, 'marketplace.license.revoke', {
    ...TAG,
    user_id: ids.userId,
    product_id: ids.productId,
    customerId: customer.id,
    productId: product.id,
    revokedLicenseIds: revoked,
    reason: 'refund',
    ...sent,
  });
  return { status: 200, body: { revokedLicenseIds: revoked } };
}

/** The work of one webhook delivery, in its transaction; the payload is checked before any is done. */
function workOf(delivery: WebhookDelivery, storage: Storage): (trx: Db) => Promise<Answer> {
  const sent = { event: delivery.event, nonce: delivery.nonce };
  switch (delivery.event) {
    case 'ping':
      return async () => ({ status: 200, body: { ok: true } });
    case 'product.user.purchase':
    case 'product.user.purchaseRemoved': {
      const ids = { productId: payloadId(delivery.payload, 'product'), userId: payloadId(delivery.payload, 'user') };
      const handle = delivery.event === 'product.user.purchase' ? onPurchase : onPurchaseRemoved;
      return (trx) => handle(trx, storage, ids, sent);
    }
    default:
      // Polymart may add events; anything but a 2xx would make it retry this one for nothing.
      return async () => ({ status: 200, body: { ignored: 'unknown event' } });
  }
}

/** Handles one signed webhook delivery, once per nonce: a redelivery gets the first answer and does nothing. */
export async function handleDelivery(storage: Storage, delivery: WebhookDelivery): Promise<Answer> {
  const work = workOf(delivery, storage);
  return retryingRaces(storage, (trx) => answerOnce(trx, delivery.nonce, () => work(trx)));
}

/**
 * Polymart's license-key placeholder: the buyer's license key, created or reused exactly
 * as a purchase. A request whose `time` is too far from the server's clock is refused (a
 * replayed request); within that window a replay is answered with the same key.
 */
export async function handlePlaceholder(storage: Storage, request: PlaceholderRequest, nowMs = Date.now()): Promise<string> {
  const skew = Math.abs(nowMs / 1000 - request.time);
  if (!(skew <= PLACEHOLDER_MAX_SKEW_SECONDS)) {
    throw new HttpError(401, `time is ${Math.round(skew)} s away from the server's clock (at most ${PLACEHOLDER_MAX_SKEW_SECONDS} s allowed)`);
  }
  const ids = { userId: idText(request.user), productId: idText(request.product) };
  const sent = {
    event: 'placeholder',
    nonce: request.nonce,
    placeholder: request.placeholder,
    ...(request.license !== undefined && { license: request.license }),
    ...(request.test !== undefined && { test: request.test }),
  };
  const product = await findProductByPolymartId(storage.db, ids.productId);
  if (!product) {
    await storage.transaction((trx) =>
      recordAudit(trx, POLYMART_ACTOR, 'marketplace.license.reject', rejectEntry(ids, 'unknown product', sent)),
    );
    throw new HttpError(404, `No product has polymartProductId ${ids.productId}`);
  }
  const { license } = await purchaseLicense(storage, purchaseOf(ids, product, sent));
  return license.id;
}
