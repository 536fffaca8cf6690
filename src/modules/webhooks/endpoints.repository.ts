import type { Db } from '../../db/database.js';
import type { WebhookEndpointsTable } from '../../db/schema.js';

export type EndpointRow = WebhookEndpointsTable;

export const findEndpoint = (db: Db, id: string): Promise<EndpointRow | undefined> =>
  db.selectFrom('webhook_endpoints').selectAll().where('id', '=', id).executeTakeFirst();

export const findEndpoints = (db: Db, ids: readonly string[]): Promise<EndpointRow[]> =>
  ids.length === 0 ? Promise.resolve([]) : db.selectFrom('webhook_endpoints').selectAll().where('id', 'in', ids).execute();

export const listEndpoints = (db: Db): Promise<EndpointRow[]> =>
  db.selectFrom('webhook_endpoints').selectAll().orderBy('created_at').orderBy('id').execute();

/** Event types per endpoint, sorted. */
export async function subscriptionsOf(db: Db, ids: readonly string[]): Promise<Map<string, string[]>> {
  const byEndpoint = new Map<string, string[]>(ids.map((id) => [id, []]));
  if (ids.length === 0) return byEndpoint;
  const rows = await db.selectFrom('webhook_subscriptions').selectAll().where('endpoint_id', 'in', ids).orderBy('event_type').execute();
  for (const row of rows) byEndpoint.get(row.endpoint_id)?.push(row.event_type);
  return byEndpoint;
}

export async function insertEndpoint(db: Db, row: EndpointRow): Promise<void> {
  await db.insertInto('webhook_endpoints').values(row).execute();
}

export async function updateEndpoint(db: Db, id: string, changes: Partial<EndpointRow>): Promise<EndpointRow | undefined> {
  return db.updateTable('webhook_endpoints').set(changes).where('id', '=', id).returningAll().executeTakeFirst();
}

/** The new secret signs from now on; the one it replaces signs beside it until `previousUntil`. */
export const rotateSecret = (db: Db, id: string, secret: string, previousUntil: number, now: number): Promise<EndpointRow | undefined> =>
  db
    .updateTable('webhook_endpoints')
    .set((eb) => ({ previous_secret: eb.ref('secret'), previous_secret_until: previousUntil, secret, updated_at: now }))
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirst();

export async function replaceSubscriptions(db: Db, id: string, events: readonly string[]): Promise<void> {
  await db.deleteFrom('webhook_subscriptions').where('endpoint_id', '=', id).execute();
  await db
    .insertInto('webhook_subscriptions')
    .values(events.map((event_type) => ({ endpoint_id: id, event_type })))
    .execute();
}

export async function deleteEndpoint(db: Db, id: string): Promise<boolean> {
  const result = await db.deleteFrom('webhook_endpoints').where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows) === 1;
}
