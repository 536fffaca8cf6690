// The one rule a purchase follows (docs/selling.md), whatever brings it: Polymart's purchase
// webhook and placeholder, the BuiltByBit purchase webhook and placeholder. In the buyer's
// transaction, holding the buyer's lock: a held trial converts; else a subscription renews;
// else a license not past grace is reused; else a new one is created; in the first three the
// license moves to the tier the purchase names. Every purchase records its order (a
// placeholder request only where it converts or moves a tier: the buyer paid on the
// marketplace); every change bumps `version` and is audited (its event with it).
import type { Db } from '../../db/database.js';
import type { LicenseRecord } from '../../db/schema.js';
import type { Storage } from '../../db/storage/storage.js';
import { clock } from '../../lib/clock.js';
import { DAY_MS } from '../../lib/time.js';
import { recordAudit } from '../audit/audit.service.js';
import type { Customer, CustomerBody } from '../customers/customers.schemas.js';
import { createCustomer } from '../customers/customers.service.js';
import { graceEndOf, subscriptionDays } from '../license-settings/license-terms.js';
import { getLicenseWithoutHistory, insertLicense, withoutHistory, type LicenseWithoutHistory } from '../licenses/licenses.service.js';
import { heldLicenseRows } from '../licenses/licenses.repository.js';
import type { OrderKind } from '../orders/orders.schemas.js';
import type { Product } from '../products/products.schemas.js';
import { convertTrial, moveTier, recordSaleOrder, renewLicense } from './sale-steps.js';

export interface Purchase {
  /** performedBy of every entry written */
  actor: string;
  product: Product;
  /** The tier the marketplace id names; null: the base. */
  tier: string | null;
  /** A purchase (Polymart's or BuiltByBit's purchase webhook) or a placeholder request (a download). */
  via: 'purchase' | 'placeholder';
  /** The order's amount; omitted: the product's price. */
  amount?: number;
  /** Names the buyer's lock: the purchases of one buyer are serialised. */
  lockKey: string;
  /** The buyer's customer record, if they have one. */
  findCustomer(db: Db): Promise<Customer | undefined>;
  /** The record to create for a buyer seen for the first time. */
  newCustomer: CustomerBody;
  /** The data of the marketplace.license.create and .reuse entries (the license and what the marketplace sent). */
  entry(license: LicenseWithoutHistory): object;
  /** Added to the data of the other entries written on the way. */
  auditTag?: Record<string, unknown>;
}

export type PurchaseStep = 'conversion' | 'renewal' | 'reuse' | 'new';

export interface Issued {
  license: LicenseWithoutHistory;
  created: boolean;
  step: PurchaseStep;
  /** The order recorded, if any. */
  orderId: string | null;
}

/** Which held license a step acts on: a trial first, else the one whose grace ends last (a perpetual one before all). */
function choose(held: readonly LicenseRecord[], now: number, via: Purchase['via']) {
  const trial = held.find((l) => l.trial === 1);
  const graceEnd = (l: LicenseRecord) => graceEndOf(l) ?? Number.MAX_SAFE_INTEGER;
  const latest = [...held].sort((a, b) => graceEnd(b) - graceEnd(a))[0];
  // Reuse needs a license not past grace; a placeholder (SPEC.md) needs one not expired.
  const usable = held.filter((l) => (via === 'placeholder' ? l.expires_at === null || l.expires_at > now : graceEnd(l) > now));
  return { trial, latest, usable: usable[0] };
}

/** The purchase rule in `trx`, holding the buyer's lock until it ends. */
export async function applyPurchase(trx: Db, storage: Storage, purchase: Purchase): Promise<Issued> {
  const { product, actor, auditTag = {} } = purchase;
  await storage.lock(trx, purchase.lockKey);
  const now = clock.now();
  const customer = (await purchase.findCustomer(trx)) ?? (await createCustomer(trx, actor, purchase.newCustomer, auditTag));
  const held = await heldLicenseRows(trx, customer.id, product.id);
  const { trial, latest, usable } = choose(held, now, purchase.via);
  const order = (kind: OrderKind, licenseId: string) =>
    recordSaleOrder(trx, actor, { customerId: customer.id, productId: product.id, amount: purchase.amount ?? product.price, kind, licenseId }, auditTag);

  if (trial) {
    await convertTrial(trx, actor, trial, product, now, auditTag);
    await moveTier(trx, actor, trial, purchase.tier, auditTag);
    const orderId = await order('conversion', trial.id);
    return reused(trx, purchase, trial.id, 'conversion', orderId);
  }
  const period = subscriptionDays(product);
  if (purchase.via === 'purchase' && period !== null && latest) {
    const orderId = await order('renewal', latest.id);
    await renewLicense(trx, actor, latest.id, product, period, orderId, auditTag);
    await moveTier(trx, actor, latest, purchase.tier, auditTag);
    return reused(trx, purchase, latest.id, 'renewal', orderId);
  }
  if (usable) {
    const moved = await moveTier(trx, actor, usable, purchase.tier, auditTag);
    const orderId = moved ? await order('upgrade', usable.id) : purchase.via === 'purchase' ? await order('reuse', usable.id) : null;
    return reused(trx, purchase, usable.id, 'reuse', orderId);
  }
  return create(trx, purchase, customer.id);
}

async function reused(trx: Db, purchase: Purchase, licenseId: string, step: PurchaseStep, orderId: string | null): Promise<Issued> {
  const license = await getLicenseWithoutHistory(trx, licenseId);
  await recordAudit(trx, purchase.actor, 'marketplace.license.reuse', { ...purchase.entry(license), step, orderId });
  return { license, created: false, step, orderId };
}

/** Step 4 (SPEC.md step 5): a new license at the tier, with its order. */
async function create(trx: Db, purchase: Purchase, customerId: string): Promise<Issued> {
  const { product, actor, auditTag = {} } = purchase;
  const period = subscriptionDays(product);
  const license = withoutHistory(
    await insertLicense(trx, {
      productId: product.id,
      customerId,
      ...(purchase.tier !== null && { tier: purchase.tier }),
      // A product with an expiry policy (creation, firstValidation) sets the expiry itself; a
      // fixed one keeps SPEC.md's rule: a subscription runs one billing period.
      ...(product.expiryBasis === 'fixed' && { expiresAtEpochMillis: period === null ? null : clock.now() + period * DAY_MS }),
    }),
  );
  // The license's own fact, as a staff-issued one writes it: whoever subscribes to
  // `licenses.create` hears of every new license, whichever route made it.
  await recordAudit(trx, actor, 'licenses.create', { ...license, validationAttemptCount: 0, ...auditTag });
  const orderId = await recordSaleOrder(
    trx,
    actor,
    { customerId, productId: product.id, amount: purchase.amount ?? product.price, kind: 'new', licenseId: license.id },
    auditTag,
  );
  await recordAudit(trx, actor, 'marketplace.license.create', purchase.entry(license));
  return { license, created: true, step: 'new', orderId };
}
