// The outbox: one row per event and subscribing endpoint. Rows are written by the
// transaction of the change they report (enqueueQuery, one INSERT … SELECT that finds the
// subscribers at that moment), then leased by one delivery worker at a time: a lease that
// runs out (the worker was killed) makes the row due again, so nothing is lost and no
// attempt is made by two workers at once.
//
// On PostgreSQL the subscribers are read with a key-share lock: an endpoint whose delete has
// not yet committed would otherwise be found, and the row for it would then fail its
// foreign-key check once the delete commits (a 500 for the change that queued the event).
// Locked, the statement waits for that delete and leaves the endpoint out.
import { sql } from 'kysely';
import type { Db } from '../../db/database.js';
import { lockRows } from '../../db/storage/row-locks.js';
import type { WebhookOutboxTable } from '../../db/schema.js';
import { ALL_EVENTS } from './event-types.js';
import type { OutboundEvent } from './events.js';

export type OutboxRow = WebhookOutboxTable;

/** How many of the oldest due rows one claim looks at. */
const CLAIM_WINDOW = 256;

/** Queues `event` for every enabled endpoint subscribed to its type (none: inserts nothing). */
export const enqueueQuery = (db: Db, event: OutboundEvent) =>
  db
    .insertInto('webhook_outbox')
    .columns(['id', 'endpoint_id', 'event_id', 'type', 'body', 'created_at', 'status', 'attempts', 'next_attempt_at'])
    .expression(
      db
        .selectFrom('webhook_endpoints as e')
        .where('e.enabled', '=', 1)
        .where((eb) =>
          eb.exists(
            eb
              .selectFrom('webhook_subscriptions as s')
              .select('s.endpoint_id')
              .whereRef('s.endpoint_id', '=', 'e.id')
              .where('s.event_type', 'in', [event.type, ALL_EVENTS]),
          ),
        )
        .select([
          sql<string>`cast(${event.id} as text) || ':' || e.id`.as('id'),
          'e.id as endpoint_id',
          sql<string>`cast(${event.id} as text)`.as('event_id'),
          sql<string>`cast(${event.type} as text)`.as('type'),
          sql<string>`cast(${event.body} as text)`.as('body'),
          sql<number>`cast(${event.createdAt} as bigint)`.as('created_at'),
          sql<string>`'pending'`.as('status'),
          sql<number>`0`.as('attempts'),
          sql<number>`cast(${event.createdAt} as bigint)`.as('next_attempt_at'),
        ])
        .$call(lockRows(db, 'keyShare', { of: 'e' })),
    );

export async function enqueue(db: Db, event: OutboundEvent): Promise<void> {
  await enqueueQuery(db, event).execute();
}

/**
 * enqueue for many events in one statement (PostgreSQL: the events of a validation batch
 * go in with its attempts at the cost of one round trip, not one per event).
 */
export async function enqueueManyPostgres(db: Db, events: readonly OutboundEvent[]): Promise<void> {
  if (events.length === 0) return;
  await sql`
    INSERT INTO webhook_outbox (id, endpoint_id, event_id, type, body, created_at, status, attempts, next_attempt_at)
    SELECT ev.id || ':' || e.id, e.id, ev.id, ev.type, ev.body, ev.created_at, 'pending', 0, ev.created_at
    FROM unnest(${events.map((e) => e.id)}::text[], ${events.map((e) => e.type)}::text[], ${events.map((e) => e.body)}::text[],
                ${events.map((e) => e.createdAt)}::bigint[]) AS ev(id, type, body, created_at)
    JOIN webhook_endpoints e ON e.enabled = 1
      AND EXISTS (SELECT 1 FROM webhook_subscriptions s WHERE s.endpoint_id = e.id AND s.event_type IN (ev.type, ${ALL_EVENTS}))
    FOR KEY SHARE OF e`.execute(db);
}

/** Queues `event` for one endpoint whatever it subscribes to (test pings). */
export async function enqueueFor(db: Db, endpointId: string, event: OutboundEvent): Promise<void> {
  await db
    .insertInto('webhook_outbox')
    .values({
      id: `${event.id}:${endpointId}`,
      endpoint_id: endpointId,
      event_id: event.id,
      type: event.type,
      body: event.body,
      created_at: event.createdAt,
      status: 'pending',
      attempts: 0,
      next_attempt_at: event.createdAt,
    })
    .execute();
}

/** Pending rows of enabled endpoints whose time has come and that nobody holds. */
const dueRows = (db: Db, now: number) =>
  db
    .selectFrom('webhook_outbox')
    .where('status', '=', 'pending')
    .where('next_attempt_at', '<=', now)
    .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<', now)]))
    .where('endpoint_id', 'in', db.selectFrom('webhook_endpoints').select('id').where('enabled', '=', 1));

/**
 * Leases up to `limit` due rows of enabled endpoints to `owner` until `leaseUntil`, at most
 * `perEndpoint` of any one endpoint and none of the endpoints in `busy` (they already have
 * that many in flight here): a receiver that hangs or has a long backlog never takes every
 * hand. PostgreSQL: rows another worker is claiming right now are skipped, not waited for.
 */
export async function claimDue(
  db: Db,
  claim: { owner: string; now: number; leaseUntil: number; limit: number; perEndpoint: number; busy: readonly string[] },
): Promise<OutboxRow[]> {
  let due = dueRows(db, claim.now);
  if (claim.busy.length > 0) due = due.where('endpoint_id', 'not in', claim.busy);
  // The oldest due rows only (read from webhook_outbox_due), so a claim costs the same
  // whatever the backlog; ranked per endpoint among them.
  const oldest = due.select(['id', 'endpoint_id', 'next_attempt_at']).orderBy('next_attempt_at').limit(CLAIM_WINDOW);
  const ranked = db
    .selectFrom(oldest.as('o'))
    .select(['o.id', 'o.next_attempt_at', sql<number>`row_number() over (partition by o.endpoint_id order by o.next_attempt_at, o.id)`.as('rank')]);
  const picked = db
    .selectFrom('webhook_outbox')
    .select('id')
    .where('id', 'in', db.selectFrom(ranked.as('r')).select('r.id').where('r.rank', '<=', claim.perEndpoint).orderBy('r.next_attempt_at').limit(claim.limit))
    .$call(lockRows(db, 'update', { skipLocked: true }));
  return db
    .updateTable('webhook_outbox')
    .set({ lease_owner: claim.owner, lease_until: claim.leaseUntil })
    .where('id', 'in', picked)
    // Re-checked: a row leased by another worker between the ranking and the lock is left to it.
    .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<', claim.now)]))
    .returningAll()
    .execute();
}

/** The row after one attempt; applied only while `owner` still holds the lease. */
export interface Settlement {
  status: 'pending' | 'delivered' | 'failed';
  attempts: number;
  nextAttemptAt: number;
}

export async function settle(db: Db, id: string, owner: string, settlement: Settlement): Promise<boolean> {
  const result = await db
    .updateTable('webhook_outbox')
    .set({ status: settlement.status, attempts: settlement.attempts, next_attempt_at: settlement.nextAttemptAt, lease_owner: null, lease_until: null })
    .where('id', '=', id)
    .where('lease_owner', '=', owner)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Makes the event due now with a fresh schedule; false: no such event for this endpoint. */
export async function redeliver(db: Db, endpointId: string, eventId: string, now: number): Promise<boolean> {
  const result = await db
    .updateTable('webhook_outbox')
    .set({ status: 'pending', attempts: 0, next_attempt_at: now })
    .where('endpoint_id', '=', endpointId)
    .where('event_id', '=', eventId)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Pending rows and the creation time of the oldest (for the queue gauges). */
export async function queueStats(db: Db): Promise<{ depth: number; oldestCreatedAt: number | null }> {
  const row = await db
    .selectFrom('webhook_outbox')
    .select((eb) => [eb.fn.countAll<number>().as('depth'), eb.fn.min('created_at').as('oldest')])
    .where('status', '=', 'pending')
    .executeTakeFirstOrThrow();
  return { depth: row.depth, oldestCreatedAt: row.oldest };
}

/** Deletes settled events older than `before`. */
export async function pruneSettled(db: Db, before: number): Promise<void> {
  await db
    .deleteFrom('webhook_outbox')
    .where('status', '!=', 'pending')
    .where('created_at', '<', before)
    .execute();
}

/** The event types (or `*`) some enabled endpoint receives. */
export async function subscribedTypes(db: Db): Promise<string[]> {
  const rows = await db
    .selectFrom('webhook_subscriptions as s')
    .innerJoin('webhook_endpoints as e', 'e.id', 's.endpoint_id')
    .select('s.event_type')
    .distinct()
    .where('e.enabled', '=', 1)
    .execute();
  return rows.map((r) => r.event_type);
}

/** Whether some row is due (a read: an idle worker takes no write lock). */
export async function anyDue(db: Db, now: number): Promise<boolean> {
  return (await dueRows(db, now).select('id').limit(1).executeTakeFirst()) !== undefined;
}
