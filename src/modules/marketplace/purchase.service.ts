// One marketplace purchase, whichever marketplace sent it: each translates its request into a
// Purchase (sales/purchase-rule.ts decides what it does). A placeholder request from a buyer
// who holds a usable license at the named tier is answered without the buyer's lock, so
// such calls of one buyer do not wait for each other.
import type { Db } from '../../db/database.js';
import { isUniqueViolation } from '../../db/storage/errors.js';
import type { Storage } from '../../db/storage/storage.js';
import { HttpError } from '../../http/errors.js';
import { recordAudit } from '../audit/audit.service.js';
import { findActiveLicense, type LicenseWithoutHistory } from '../licenses/licenses.service.js';
import { applyPurchase, type Issued, type Purchase } from '../sales/purchase-rule.js';

export type { Issued, Purchase } from '../sales/purchase-rule.js';

const ATTEMPTS = 3;

/** The buyer's customer record and active license for the product, where they exist. */
export async function findHeld(db: Db, purchase: Purchase) {
  const customer = await purchase.findCustomer(db);
  const license = customer ? await findActiveLicense(db, customer.id, purchase.product.id) : undefined;
  return { customer, license };
}

/** A held license a placeholder request reuses as it is: not a trial, at the tier named. */
const reusableAsIs = (license: LicenseWithoutHistory | undefined, purchase: Purchase) =>
  license !== undefined && !license.trial && license.tier === purchase.tier ? license : undefined;

/** The rule in `trx` (the buyer's lock is taken there). */
export const issue = (trx: Db, storage: Storage, purchase: Purchase): Promise<Issued> => applyPurchase(trx, storage, purchase);

/** A purchase or placeholder request in its own transaction, retried when it lost a race. */
export async function purchaseLicense(storage: Storage, purchase: Purchase): Promise<Issued> {
  if (purchase.via === 'placeholder') {
    const reused = await storage.transaction(async (trx) => {
      const license = reusableAsIs((await findHeld(trx, purchase)).license, purchase);
      if (!license) return undefined;
      await recordAudit(trx, purchase.actor, 'marketplace.license.reuse', { ...purchase.entry(license), step: 'reuse', orderId: null });
      return { license, created: false, step: 'reuse', orderId: null } satisfies Issued;
    });
    if (reused) return reused;
  }
  return retryingRaces(storage, (trx) => issue(trx, storage, purchase));
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
