// Polymart (DECISIONS.md "Polymart"): its webhook events and its license-key placeholder,
// translated into the one purchase of purchase.service.ts, and its refunds into
// revocations. Every entry these write carries `"marketplace": "polymart"` in its data.
// Answers are 200 whatever the outcome: any other status makes Polymart retry.
import type { Db } from '../../db/database.js';
import type { Storage } from '../../db/storage/storage.js';
import { badRequest, HttpError } from '../../http/errors.js';
import { recordAudit } from '../audit/audit.service.js';
import type { Customer } from '../customers/customers.schemas.js';
import { findCustomerByPolymartUserId, updateCustomer } from '../customers/customers.service.js';
import { activeLicenseIds, revokeLicense } from '../licenses/licenses.service.js';
import { refundOrdersOf } from '../orders/orders.service.js';
import { findSale, type Sale } from '../products/products.service.js';
import { answerOnce, type Answer } from './polymart.nonces.js';
import { findHeld, issue, purchaseLicense, retryingRaces, type Purchase } from './purchase.service.js';
import { REFUND_REASON, refundedLicenseId } from './refunded-license.js';

export const POLYMART_ACTOR = 'polymart';
const TAG = { marketplace: 'polymart' } as const;
/** How far a placeholder request's `time` may be from the server's clock. */
export const PLACEHOLDER_MAX_SKEW_SECONDS = 300;
/**
 * What a placeholder test (`test: true`, Polymart's test button) is answered: shaped like a
 * key so the vendor sees where it lands, but no license (nothing is created for a test).
 */
export const PLACEHOLDER_TEST_VALUE = 'TEST0-TEST0-TEST0-TEST0-TEST0';
/** Where the buyer's Polymart username is kept (the customer's name shows it too). */
export const USERNAME_SOCIAL = 'PolymartUsername';

/** A Polymart buyer and product, ids as text; the buyer's username when Polymart sent one. */
export interface PolymartIds {
  userId: string;
  productId: string;
  username?: string;
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

/** `payload.user.username` when it is usable text (it is optional: nothing is refused for it). */
function payloadUsername(payload: Record<string, unknown> | undefined): string | undefined {
  const user = payload?.user;
  const value = user !== null && typeof user === 'object' ? (user as Record<string, unknown>).username : undefined;
  if (typeof value !== 'string') return undefined;
  const trimmed = value.trim();
  return trimmed.length > 0 && trimmed.length <= 100 ? trimmed : undefined;
}

const defaultName = (userId: string) => `Polymart user ${userId}`;

/** A Polymart buyer's purchase (or download): the customer is found by socials.PolymartID. */
function purchaseOf(ids: PolymartIds, sale: Sale, sent: object, via: Purchase['via']): Purchase {
  return {
    actor: POLYMART_ACTOR,
    product: sale.product,
    tier: sale.tier,
    via,
    lockKey: `polymart:${ids.userId}`,
    findCustomer: (db) => findCustomerByPolymartUserId(db, ids.userId),
    newCustomer: {
      // The username, so staff find the buyer by the name they know from Polymart.
      name: ids.username ?? defaultName(ids.userId),
      email: `${ids.userId}@polymart.invalid`,
      socials: { PolymartID: ids.userId, ...(ids.username !== undefined && { [USERNAME_SOCIAL]: ids.username }) },
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

/**
 * A known buyer's record gains the username a purchase carries when it lacks it (created
 * by a placeholder, or before usernames were kept); a name staff gave it is left alone.
 */
async function keepUsername(trx: Db, ids: PolymartIds): Promise<void> {
  if (ids.username === undefined) return;
  const customer = await findCustomerByPolymartUserId(trx, ids.userId);
  if (!customer || customer.socials[USERNAME_SOCIAL] === ids.username) return;
  const body: Parameters<typeof updateCustomer>[3] = {
    name: customer.name === defaultName(ids.userId) ? ids.username : customer.name,
    email: customer.email,
    socials: { ...customer.socials, [USERNAME_SOCIAL]: ids.username } as Customer['socials'],
    note: customer.note,
  };
  await updateCustomer(trx, POLYMART_ACTOR, customer.id, body, TAG);
}

/** `product.user.purchase`: the buyer's license, created or reused; an unknown product is acknowledged and audited. */
async function onPurchase(trx: Db, storage: Storage, ids: PolymartIds, sent: object): Promise<Answer> {
  const sale = await findSale(trx, 'polymart', ids.productId);
  if (!sale) {
    await recordAudit(trx, POLYMART_ACTOR, 'marketplace.license.reject', rejectEntry(ids, 'unknown product', sent));
    return { status: 200, body: { ignored: 'unknown product' } };
  }
  await keepUsername(trx, ids);
  const { license, created } = await issue(trx, storage, purchaseOf(ids, sale, sent, 'purchase'));
  return { status: 200, body: { licenseKey: license.id, created } };
}

/**
 * `product.user.purchaseRemoved` (refund or chargeback): every license of the buyer for
 * the product that has not expired is revoked, as a staff revocation would (reason `refund`).
 */
async function onPurchaseRemoved(trx: Db, storage: Storage, ids: PolymartIds, sent: object): Promise<Answer> {
  const product = (await findSale(trx, 'polymart', ids.productId))?.product;
  const customer = product && (await findCustomerByPolymartUserId(trx, ids.userId));
  if (!product || !customer) {
    const reason = product ? 'unknown customer' : 'unknown product';
    await recordAudit(trx, POLYMART_ACTOR, 'marketplace.license.reject', rejectEntry(ids, reason, sent));
    return { status: 200, body: { revokedLicenseIds: [], ignored: reason } };
  }
  await storage.lock(trx, `polymart:${ids.userId}`); // not while a purchase of this buyer issues a license
  const revoked = await activeLicenseIds(trx, customer.id, product.id);
  for (const id of revoked) await revokeLicense(trx, POLYMART_ACTOR, id, REFUND_REASON, 1, TAG);
  // The money went back: the orders that sold these licenses stop counting as revenue.
  const refundedOrderIds = await refundOrdersOf(trx, POLYMART_ACTOR, customer.id, revoked, TAG);
  await recordAudit(trx, POLYMART_ACTOR, 'marketplace.license.revoke', {
    ...TAG,
    user_id: ids.userId,
    product_id: ids.productId,
    customerId: customer.id,
    productId: product.id,
    revokedLicenseIds: revoked,
    refundedOrderIds,
    reason: REFUND_REASON,
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
      const ids = {
        productId: payloadId(delivery.payload, 'product'),
        userId: payloadId(delivery.payload, 'user'),
        username: payloadUsername(delivery.payload),
      };
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
 * A buyer who holds no active license for the product but had one refunded: their
 * download is answered with the refunded (revoked) key, which does not validate, and the
 * refusal audited. A new purchase (Polymart's webhook) issues them a new license.
 */
async function refundedKey(storage: Storage, purchase: Purchase, ids: PolymartIds, sent: object): Promise<string | undefined> {
  return storage.transaction(async (trx) => {
    const { customer, license } = await findHeld(trx, purchase);
    if (!customer || license) return undefined;
    const refunded = await refundedLicenseId(trx, customer.id, purchase.product.id);
    if (refunded === undefined) return undefined;
    await recordAudit(trx, POLYMART_ACTOR, 'marketplace.license.reject', { ...rejectEntry(ids, 'refunded', sent), licenseId: refunded });
    return refunded;
  });
}

/**
 * Polymart's license-key placeholder: the buyer's license key, created or reused exactly
 * as a purchase, except for a refunded buyer (their revoked key, nothing new) and for a
 * test (`test: true`: a sample value, nothing written). A request whose `time` is too far
 * from the server's clock is refused (a replayed request); within that window a replay is
 * answered with the same key.
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
  const sale = await findSale(storage.db, 'polymart', ids.productId);
  const product = sale?.product;
  if (request.test === true) {
    // Polymart's test button: says whether the product is connected, creates nothing.
    if (!product) throw new HttpError(404, `No product has polymartProductId ${ids.productId}`);
    return PLACEHOLDER_TEST_VALUE;
  }
  if (!sale) {
    await storage.transaction((trx) =>
      recordAudit(trx, POLYMART_ACTOR, 'marketplace.license.reject', rejectEntry(ids, 'unknown product', sent)),
    );
    throw new HttpError(404, `No product has polymartProductId ${ids.productId}`);
  }
  const purchase = purchaseOf(ids, sale, sent, 'placeholder');
  const refunded = await refundedKey(storage, purchase, ids, sent);
  if (refunded !== undefined) return refunded;
  const { license } = await purchaseLicense(storage, purchase);
  return license.id;
}
