// A buyer's license that a refund revoked: what a refunded buyer's download is answered
// with, so that a placeholder never issues them a new license.
import type { Db } from '../../db/database.js';

export const REFUND_REASON = 'refund';

/** The key of the customer's most recently refunded license for the product, if any. */
export async function refundedLicenseId(db: Db, customerId: string, productId: string): Promise<string | undefined> {
  const row = await db
    .selectFrom('licenses')
    .select('id')
    .where('customer_id', '=', customerId)
    .where('product_id', '=', productId)
    .where('revoked_reason', '=', REFUND_REASON)
    .orderBy('revoked_at', 'desc')
    .orderBy('id')
    .limit(1)
    .executeTakeFirst();
  return row?.id;
}
