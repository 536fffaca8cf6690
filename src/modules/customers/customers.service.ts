import type { Db } from '../../db/database.js';
import { forEachBatch, isPaged, listKeyOf } from '../../db/list-queries.js';
import { isForeignKeyViolation, isUniqueViolation } from '../../db/storage/errors.js';
import type { CustomersTable } from '../../db/schema.js';
import { conflict, notFound } from '../../http/errors.js';
import type { Listed } from '../../http/list-response.js';
import type { ListWriter } from '../../http/list-stream.js';
import { MAX_PAGE_SIZE } from '../../http/schemas.js';
import { newId } from '../../lib/ids.js';
import { referencedByMessage } from '../../lib/references.js';
import { recordAudit } from '../audit/audit.service.js';
import * as repo from './customers.repository.js';
import type { Customer, CustomerBody, CustomerPatch, CustomerQuery, Socials } from './customers.schemas.js';
import { clock } from '../../lib/clock.js';

const toCustomer = (row: CustomersTable): Customer => ({
  id: row.id,
  name: row.name,
  email: row.email,
  socials: JSON.parse(row.socials) as Socials,
  note: row.note,
  createdAtEpochMillis: row.created_at,
});

/** Full replacement: omitted socials become {}, an omitted note null. */
function toValues(body: CustomerBody): repo.CustomerValues {
  const socials = body.socials ?? {};
  return {
    name: body.name,
    email: body.email,
    socials: JSON.stringify(socials),
    note: body.note ?? null,
    // An empty id identifies nobody, so it does not claim the unique column.
    marketplace_user_id: socials.MarketplaceID || null,
    polymart_user_id: socials.PolymartID || null,
  };
}

/**
 * Runs a write; a taken MarketplaceID or PolymartID (also when two writes race) is a 409.
 * Both drivers name the column's index in the violation's message.
 */
async function uniqueMarketplaceId<T>(body: CustomerBody, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (err) {
    if (!isUniqueViolation(err)) throw err;
    if ((err as Error).message.includes('polymart_user_id')) {
      throw conflict(`socials.PolymartID ${body.socials?.PolymartID ?? ''} is already used by another customer`);
    }
    throw conflict(`socials.MarketplaceID ${body.socials?.MarketplaceID ?? ''} is already used by another customer`);
  }
}

export async function getCustomer(db: Db, id: string): Promise<Customer> {
  const row = await repo.findCustomer(db, id);
  if (!row) throw notFound('Customer not found');
  return toCustomer(row);
}

/** The page asked for, and how many customers match the filters in all. */
export async function listCustomers(db: Db, query: CustomerQuery): Promise<Listed<Customer>> {
  const filter = { ...query, limit: query.limit === undefined ? undefined : Math.min(query.limit, MAX_PAGE_SIZE) };
  const rows = await repo.listCustomers(db, filter);
  const total = isPaged(filter) ? await repo.countCustomers(db, filter) : rows.length;
  return { records: rows.map(toCustomer), total };
}

/** Every customer matching the filters, written to `writer` batch by batch (call inside one snapshot). */
export async function streamCustomers(db: Db, query: CustomerQuery, writer: ListWriter<Customer>): Promise<void> {
  const { limit: _limit, offset: _offset, ...filter } = query;
  writer.start(await repo.countCustomers(db, filter));
  await forEachBatch(
    async (page) => (await repo.listCustomers(db, { ...filter, ...page })).map(toCustomer),
    listKeyOf(repo.CUSTOMER_SORT, filter),
    (records) => writer.write(records),
  );
}

/** The customer holding socials.MarketplaceID = `userId`, if any (for the marketplace webhook). */
export async function findCustomerByMarketplaceUserId(db: Db, userId: string): Promise<Customer | undefined> {
  const row = await repo.findCustomerByMarketplaceUserId(db, userId);
  return row && toCustomer(row);
}

/** The customer holding socials.PolymartID = `userId`, if any (for the Polymart integration). */
export async function findCustomerByPolymartUserId(db: Db, userId: string): Promise<Customer | undefined> {
  const row = await repo.findCustomerByPolymartUserId(db, userId);
  return row && toCustomer(row);
}

/**
 * Creates a customer and its `customers.create` entry in the caller's transaction.
 * A MarketplaceID or PolymartID another customer holds is a 409 HttpError. `auditTag`
 * joins the entry's data (a marketplace says it created the record).
 */
export async function createCustomer(trx: Db, actor: string, body: CustomerBody, auditTag: object = {}): Promise<Customer> {
  const row: CustomersTable = { id: newId(), ...toValues(body), created_at: clock.now() };
  await uniqueMarketplaceId(body, () => repo.insertCustomer(trx, row));
  const customer = toCustomer(row);
  await recordAudit(trx, actor, 'customers.create', { ...customer, ...auditTag });
  return customer;
}

export async function updateCustomer(trx: Db, actor: string, id: string, body: CustomerBody, auditTag: object = {}): Promise<Customer> {
  const updated = await uniqueMarketplaceId(body, () => repo.updateCustomer(trx, id, toValues(body)));
  if (!updated) throw notFound('Customer not found');
  const customer = await getCustomer(trx, id);
  await recordAudit(trx, actor, 'customers.update', { ...customer, ...auditTag });
  return customer;
}

/** Sets the fields given and keeps the others (PATCH); audited as `customers.update`. */
export async function patchCustomer(trx: Db, actor: string, id: string, patch: CustomerPatch): Promise<Customer> {
  const { id: _id, createdAtEpochMillis: _created, ...current } = await getCustomer(trx, id);
  return updateCustomer(trx, actor, id, { ...current, ...patch } as CustomerBody);
}

/** Deletes a customer no license or order refers to; the entry holds the record as it was. */
export async function deleteCustomer(trx: Db, actor: string, id: string): Promise<void> {
  const customer = await getCustomer(trx, id);
  const referenced = referencedByMessage('Customer', await repo.countCustomerReferences(trx, id));
  if (referenced) throw conflict(referenced);
  try {
    await repo.deleteCustomer(trx, id);
  } catch (err) {
    // A license or order created for it since the count above.
    if (isForeignKeyViolation(err)) throw conflict('Customer is referenced by a license or order');
    throw err;
  }
  await recordAudit(trx, actor, 'customers.delete', customer);
}
