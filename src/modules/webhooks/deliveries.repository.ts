// The delivery log: one row per attempt (its answer or error), kept for
// DELIVERY_LOG_RETENTION_MS, shown by GET /webhook-endpoints/{id}/deliveries with the state
// of its event in the outbox now.
import { sql } from 'kysely';
import type { Db } from '../../db/database.js';
import type { WebhookDeliveriesTable } from '../../db/schema.js';

export async function insertDelivery(db: Db, delivery: WebhookDeliveriesTable): Promise<void> {
  await db.insertInto('webhook_deliveries').values(delivery).execute();
}

/** A logged attempt and its event's state now (the outbox row, found by its key `<event id>:<endpoint id>`). */
export type LoggedDelivery = WebhookDeliveriesTable & { event_status: string | null };

export function listDeliveries(db: Db, endpointId: string, limit: number): Promise<LoggedDelivery[]> {
  return db
    .selectFrom('webhook_deliveries as d')
    .leftJoin('webhook_outbox as o', (join) => join.on('o.id', '=', sql<string>`d.event_id || ':' || d.endpoint_id`))
    .selectAll('d')
    .select('o.status as event_status')
    .where('d.endpoint_id', '=', endpointId)
    .orderBy('d.at', 'desc')
    .orderBy('d.id', 'desc')
    .limit(limit)
    .execute();
}

/** Deletes delivery log rows older than `before`. */
export async function pruneDeliveries(db: Db, before: number): Promise<void> {
  await db.deleteFrom('webhook_deliveries').where('at', '<', before).execute();
}
