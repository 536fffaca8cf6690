// POST /licenses/{id}/renew: rule step 2 by hand (staff). The license, locked, moves by
// `days` (default the product's period) as a purchase renewal moves it; with `amount` the
// renewal is recorded as an order, whose id the `licenses.renewed` entry names.
import type { Db } from '../../db/database.js';
import { badRequest, notFound } from '../../http/errors.js';
import { getLicense } from '../licenses/licenses.service.js';
import type { License } from '../licenses/licenses.schemas.js';
import { licenseRow } from '../licenses/licenses.repository.js';
import { getProduct } from '../products/products.service.js';
import type { RenewBody } from './renewal.schemas.js';
import { recordSaleOrder, renewLicense } from './sale-steps.js';

export async function renewByStaff(trx: Db, actor: string, id: string, body: RenewBody, historyMax: number): Promise<License> {
  const row = await licenseRow(trx, id);
  if (!row) throw notFound('License not found');
  const product = await getProduct(trx, row.product_id);
  const days = body.days ?? product.recurringPeriodDays ?? null;
  if (days === null || days < 1) throw badRequest("days is required: the license's product has no recurringPeriodDays");
  const orderId =
    body.amount === undefined
      ? null
      : await recordSaleOrder(trx, actor, { customerId: row.customer_id, productId: row.product_id, amount: body.amount, kind: 'renewal', licenseId: id }, {});
  await renewLicense(trx, actor, id, product, days, orderId);
  return getLicense(trx, id, historyMax);
}
