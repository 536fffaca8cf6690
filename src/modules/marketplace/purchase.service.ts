// One marketplace purchase, whichever marketplace sent it (SPEC.md steps 3 to 6): the
// buyer's customer record, found or created; their active license for the product, or a
// new one with its order (`licenses.create` and `orders.create`); `marketplace.license.create`
// or `.reuse` audited. Each
// marketplace translates its request into a Purchase, so these rules live once.
import type { Db } from '../../db/database.js';
import { isUniqueViolation } from '../../db/storage/errors.js';
import type { Storage } from '../../db/storage/storage.js';
import { HttpError } from '../../http/errors.js';
import { recordAudit } from '../audit/audit.service.js';
import type { Customer, CustomerBody } from '../customers/customers.schemas.js';
import { createCustomer } from '../customers/customers.service.js';
import { findActiveLicense, insertLicense, withoutHistory, type LicenseWithoutHistory } from '../licenses/licenses.service.js';
import { createOrder } from '../orders/orders.service.js';
import type { Product } from '../products/products.schemas.js';
import { DAY_MS } from '../../lib/time.js';
import { clock } from '../../lib/clock.js';

const ATTEMPTS = 3;

export interface Purchase {
  /** performedBy of every entry written */
  actor: string;
  product: Product;
  /** Names the buyer's lock: calls that may create are serialised per buyer. */
  lockKey: string;
  /** The buyer's customer record, if they have one. */
  findCustomer(db: Db): Promise<Customer | undefined>;
  /** The record to create for a buyer seen for the first time. */
  newCustomer: CustomerBody;
  /** The data of the create and reuse entries (the license and what the marketplace sent). */
  entry(license: LicenseWithoutHistory): object;
  /** Added to the data of the other entries written on the way (customers.create, orders.create). */
  auditTag?: Record<string, unknown>;
}

export interface Issued {
  license: LicenseWithoutHistory;
  created: boolean;
}

/** Steps 3 and 4: the buyer's customer record and active license for the product, where they exist. */
export async function findHeld(db: Db, purchase: Purchase) {
  const customer = await purchase.findCustomer(db);
  const license = customer ? await findActiveLicense(db, customer.id, purchase.product.id) : undefined;
  return { customer, license };
}

/** Answers with the license the buyer holds already, audited as a reuse. */
export async function reuse(trx: Db, purchase: Purchase, license: LicenseWithoutHistory): Promise<Issued> {
  await recordAudit(trx, purchase.actor, 'marketplace.license.reuse', purchase.entry(license));
  return { license, created: false };
}

/** Steps 3 to 6 in `trx`, holding the buyer's lock until it ends. */
export async function issue(trx: Db, storage: Storage, purchase: Purchase): Promise<Issued> {
  const { product, actor, auditTag } = purchase;
  await storage.lock(trx, purchase.lockKey);
  const found = await findHeld(trx, purchase); // another call may have issued it meanwhile
  if (found.license) return reuse(trx, purchase, found.license);
  const customer = found.customer ?? (await createCustomer(trx, actor, purchase.newCustomer, auditTag));

  // A product with an expiry policy (creation, firstValidation) sets the expiry itself; a
  // fixed one keeps SPEC.md's rule: a subscription runs one billing period.
  const expiresAtEpochMillis =
    product.isSubscription && product.recurringPeriodDays ? clock.now() + product.recurringPeriodDays * DAY_MS : null;
  const license = withoutHistory(
    await insertLicense(trx, {
      productId: product.id,
      customerId: customer.id,
      // limits and policy settings are left out so they come from the product
      ...(product.expiryBasis === 'fixed' ? { expiresAtEpochMillis } : {}),
    }),
  );
  // The license's own fact, as a staff-issued one writes it: whoever subscribes to
  // `licenses.create` hears of every new license, whichever route made it.
  // marketplace.license.create below says which purchase made it.
  await recordAudit(trx, actor, 'licenses.create', { ...license, validationAttemptCount: 0, ...auditTag });
  const order = { customerId: customer.id, productIds: [product.id], totalAmount: product.price, licenseIds: [license.id] };
  await createOrder(trx, actor, order, auditTag);
  await recordAudit(trx, actor, 'marketplace.license.create', purchase.entry(license));
  return { license, created: true };
}

/**
 * Steps 3 to 6 on their own: most calls come from buyers who hold their license already,
 * which needs no lock, so such calls of one buyer do not wait for each other.
 */
export async function purchaseLicense(storage: Storage, purchase: Purchase): Promise<Issued> {
  const reused = await storage.transaction(async (trx) => {
    const { license } = await findHeld(trx, purchase);
    return license && reuse(trx, purchase, license);
  });
  return reused ?? retryingRaces(storage, (trx) => issue(trx, storage, purchase));
}

/**
 * Runs `work` in one transaction, and again when it lost a race: another instance created
 * the buyer first, SQLite's write lock was held, or a record changed under it (409). The
 * next attempt sees the other's work and builds on it.
 */
export async function retryingRaces<T>(storage: Storage, work: (trx: Db) => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await storage.transaction(work);
    } catch (err) {
      const raced = isUniqueViolation(err) || storage.isRetryable(err) || (err instanceof HttpError && err.statusCode === 409);
      if (attempt >= ATTEMPTS || !raced) throw err;
    }
  }
}
