// The names a Discord message shows for the ids an event carries: read when the message is
// sent (the event stores ids only), so a record renamed since shows its current name and
// one deleted since shows its id.
import type { Db } from '../../db/database.js';
import type { DiscordNames } from './discord-format.js';

const idIn = (data: Record<string, unknown>, field: string): string | undefined =>
  typeof data[field] === 'string' && data[field] !== '' ? (data[field] as string) : undefined;

export async function discordNames(db: Db, type: string, body: string): Promise<DiscordNames> {
  let data: Record<string, unknown>;
  try {
    const parsed = JSON.parse(body) as { data?: unknown };
    if (!parsed.data || typeof parsed.data !== 'object' || Array.isArray(parsed.data)) return {};
    data = parsed.data as Record<string, unknown>;
  } catch {
    return {};
  }
  let productId = idIn(data, 'productId');
  let customerId = idIn(data, 'customerId');
  // Validation and slot events name the license only: its product and customer are the license's.
  const licenseId = idIn(data, 'licenseId');
  if (licenseId && !customerId) {
    const license = await db.selectFrom('licenses').select(['product_id', 'customer_id']).where('id', '=', licenseId).executeTakeFirst();
    productId ??= license?.product_id;
    customerId = license?.customer_id;
  }
  if (type.startsWith('products.') || type.startsWith('customers.')) return {}; // the record itself carries its name
  const product = productId && (await db.selectFrom('products').select('name').where('id', '=', productId).executeTakeFirst());
  const customer = customerId && (await db.selectFrom('customers').select('name').where('id', '=', customerId).executeTakeFirst());
  return { ...(product && { product: product.name }), ...(customer && { customer: customer.name }) };
}
