// The changes a sale makes to a held license, each with its audit entry (and event) in the
// caller's transaction, each bumping `version`: a trial converted, a subscription renewed,
// the tier moved; and the order that records the sale.
import type { Db } from '../../db/database.js';
import type { LicenseRecord } from '../../db/schema.js';
import { conflict, notFound } from '../../http/errors.js';
import { clock } from '../../lib/clock.js';
import { recordAudit } from '../audit/audit.service.js';
import { renewedTerms, saleTerms } from '../license-settings/license-terms.js';
import * as licensesRepo from '../licenses/licenses.repository.js';
import { getLicenseWithoutHistory } from '../licenses/licenses.service.js';
import type { OrderKind } from '../orders/orders.schemas.js';
import { createOrder } from '../orders/orders.service.js';
import type { Product } from '../products/products.schemas.js';
import { findTier } from '../products/products.repository.js';
import { badRequest } from '../../http/errors.js';

export interface SaleOrder {
  customerId: string;
  productId: string;
  amount: number;
  kind: OrderKind;
  licenseId: string;
}

/** The order of a sale (its `orders.create` entry tagged like the sale's); its id. */
export async function recordSaleOrder(trx: Db, actor: string, sale: SaleOrder, auditTag: object): Promise<string> {
  const order = await createOrder(
    trx,
    actor,
    { customerId: sale.customerId, productIds: [sale.productId], totalAmount: sale.amount, licenseIds: [sale.licenseId], kind: sale.kind, licenseId: sale.licenseId },
    auditTag,
  );
  return order.id;
}

/** Rule step 1: the trial is a paid license now, its dates those of a new sale counted from now (its clock started, it has been used). */
export async function convertTrial(trx: Db, actor: string, trial: LicenseRecord, product: Product, now: number, auditTag: object): Promise<void> {
  const terms = saleTerms(product, now, true);
  await licensesRepo.updateSaleFields(trx, trial.id, { ...terms, trial: 0, expiry_set_at: now });
  const license = await getLicenseWithoutHistory(trx, trial.id);
  await recordAudit(trx, actor, 'licenses.trial.converted', {
    ...license,
    licenseId: trial.id,
    previousExpiresAtEpochMillis: trial.expires_at,
    ...auditTag,
  });
}

/**
 * Rule step 2 (and POST /licenses/{id}/renew): the license, locked, renewed by `days`
 * (renewedTerms says what moves). 404 for no license, 409 for a revoked one or one that never expires.
 */
export async function renewLicense(
  trx: Db,
  actor: string,
  licenseId: string,
  product: Pick<Product, 'recurringPeriodDays'>,
  days: number,
  orderId: string | null,
  auditTag: object = {},
): Promise<void> {
  const row = await licensesRepo.lockLicense(trx, licenseId); // renewals of one license queue here, on any instance
  if (!row) throw notFound('License not found');
  if (row.revoked_at !== null) throw conflict('License is revoked');
  const now = clock.now();
  const terms = renewedTerms(row, product, now, days);
  if (Object.keys(terms.set).length === 0) throw conflict('License does not expire');
  await licensesRepo.updateSaleFields(trx, licenseId, terms.set);
  const license = await getLicenseWithoutHistory(trx, licenseId);
  await recordAudit(trx, actor, 'licenses.renewed', {
    ...license,
    licenseId,
    previousExpiresAtEpochMillis: terms.previousExpiresAt,
    expiresAtEpochMillis: license.expiresAtEpochMillis,
    orderId,
    ...auditTag,
  });
}

/** Moves the license to `tier` when it is at another one (upgrade or downgrade); whether it moved. */
export async function moveTier(trx: Db, actor: string, license: LicenseRecord, tier: string | null, auditTag: object): Promise<boolean> {
  if (license.tier === tier) return false;
  if (tier !== null && !(await findTier(trx, license.product_id, tier))) throw badRequest(`tier ${tier} is not a tier of product ${license.product_id}`);
  await licensesRepo.updateSaleFields(trx, license.id, { tier });
  await recordAudit(trx, actor, 'licenses.tier.changed', { licenseId: license.id, from: license.tier, to: tier, ...auditTag });
  return true;
}
