// Webhook endpoints: where events go. The secret is shown once (creation, rotation) and
// never audited; every change is audited in its own transaction.
import { randomBytes } from 'node:crypto';
import type { Db } from '../../db/database.js';
import { badRequest, conflict, notFound } from '../../http/errors.js';
import { newId } from '../../lib/ids.js';
import { recordAudit } from '../audit/audit.service.js';
import { assertDeliverableUrl, UnsafeUrlError } from './address-guard.js';
import { ALL_EVENTS, isEventType, PING_EVENT_TYPE } from '../events/event-types.js';
import { newEvent } from '../events/events.js';
import * as repo from './endpoints.repository.js';
import * as outbox from '../events/outbox.repository.js';
import * as deliveries from './deliveries.repository.js';
import type { Delivery, WebhookEndpoint, WebhookEndpointBody, WebhookEndpointWithSecret } from './webhooks.schemas.js';
import { DAY_MS } from '../../lib/time.js';
import { clock } from '../../lib/clock.js';

export const ENDPOINT_NOT_FOUND = 'Webhook endpoint not found';

const newSecret = () => `whsec_${randomBytes(32).toString('base64')}`;

/** How long a rotated secret keeps signing beside the new one: time to install the new one. */
export const SECRET_OVERLAP_MS = DAY_MS;

function toView(row: repo.EndpointRow, events: string[]): WebhookEndpoint {
  return {
    id: row.id,
    url: row.url,
    events,
    format: row.format as WebhookEndpoint['format'],
    description: row.description,
    enabled: row.enabled === 1,
    failingSinceEpochMillis: row.failing_since,
    disabledReason: row.disabled_reason,
    createdAtEpochMillis: row.created_at,
    updatedAtEpochMillis: row.updated_at,
  };
}

/** The event list as stored: known types only, no duplicates, `*` alone. */
function checkedEvents(events: readonly string[]): string[] {
  const unknown = events.find((event) => event !== ALL_EVENTS && !isEventType(event));
  if (unknown !== undefined) throw badRequest(`events: unknown event type ${JSON.stringify(unknown)}`);
  return events.includes(ALL_EVENTS) ? [ALL_EVENTS] : [...new Set(events)].sort();
}

async function checkedUrl(url: string, allowPrivateNetworks: boolean): Promise<string> {
  try {
    return (await assertDeliverableUrl(url, allowPrivateNetworks)).href;
  } catch (err) {
    if (err instanceof UnsafeUrlError) throw badRequest(err.message);
    throw err;
  }
}

/** Body checks that need no transaction (DNS included): done before one is opened. */
export async function checkBody(body: WebhookEndpointBody, allowPrivateNetworks: boolean) {
  return { url: await checkedUrl(body.url, allowPrivateNetworks), events: checkedEvents(body.events) };
}

export async function listEndpoints(db: Db): Promise<WebhookEndpoint[]> {
  const rows = await repo.listEndpoints(db);
  const events = await repo.subscriptionsOf(db, rows.map((r) => r.id));
  return rows.map((row) => toView(row, events.get(row.id)!));
}

export async function getEndpoint(db: Db, id: string): Promise<WebhookEndpoint> {
  const row = await repo.findEndpoint(db, id);
  if (!row) throw notFound(ENDPOINT_NOT_FOUND);
  return toView(row, (await repo.subscriptionsOf(db, [id])).get(id)!);
}

export async function createEndpoint(
  trx: Db,
  actor: string,
  body: WebhookEndpointBody,
  checked: { url: string; events: string[] },
): Promise<WebhookEndpointWithSecret> {
  const now = clock.now();
  const row: repo.EndpointRow = {
    id: newId(),
    url: checked.url,
    description: body.description ?? null,
    format: body.format ?? 'standard',
    enabled: body.enabled === false ? 0 : 1,
    secret: newSecret(),
    previous_secret: null,
    previous_secret_until: null,
    created_at: now,
    updated_at: now,
    failing_since: null,
    disabled_reason: null,
  };
  const view = toView(row, checked.events);
  // Audited (and its event queued) before the endpoint exists: the new endpoint is not sent
  // its own creation, which it could not verify (nobody can have installed its secret yet).
  await recordAudit(trx, actor, 'webhookEndpoint.create', view);
  await repo.insertEndpoint(trx, row);
  await repo.replaceSubscriptions(trx, row.id, checked.events);
  return { ...view, secret: row.secret };
}

export async function updateEndpoint(
  trx: Db,
  actor: string,
  id: string,
  body: WebhookEndpointBody,
  checked: { url: string; events: string[] },
): Promise<WebhookEndpoint> {
  const before = await repo.findEndpoint(trx, id);
  if (!before) throw notFound(ENDPOINT_NOT_FOUND);
  const enabled = body.enabled === false ? 0 : 1;
  const row = await repo.updateEndpoint(trx, id, {
    url: checked.url,
    description: body.description ?? null,
    format: body.format ?? 'standard',
    enabled,
    updated_at: clock.now(),
    // Enabling again starts a new count towards the automatic disable.
    ...(enabled === 1 && before.enabled === 0 ? { failing_since: null, disabled_reason: null } : {}),
  });
  await repo.replaceSubscriptions(trx, id, checked.events);
  const view = toView(row!, checked.events);
  await recordAudit(trx, actor, 'webhookEndpoint.update', view);
  return view;
}

/**
 * The lock a transaction takes before it touches an endpoint's queued events and then the
 * endpoint (a delivery's record), or the endpoint and then its events (a delete's cascade):
 * the two orders would deadlock on PostgreSQL without it.
 */
export const endpointLockKey = (id: string) => `webhook-endpoint:${id}`;

export async function deleteEndpoint(trx: Db, actor: string, id: string): Promise<void> {
  const view = await getEndpoint(trx, id);
  await repo.deleteEndpoint(trx, id); // its subscriptions, queued events and delivery log go with it
  await recordAudit(trx, actor, 'webhookEndpoint.delete', view);
}

export async function rotateSecret(trx: Db, actor: string, id: string): Promise<WebhookEndpointWithSecret> {
  const secret = newSecret();
  const now = clock.now();
  const row = await repo.rotateSecret(trx, id, secret, now + SECRET_OVERLAP_MS, now);
  if (!row) throw notFound(ENDPOINT_NOT_FOUND);
  const view = toView(row, (await repo.subscriptionsOf(trx, [id])).get(id)!);
  await recordAudit(trx, actor, 'webhookEndpoint.rotateSecret', { id, url: row.url });
  return { ...view, secret };
}

/** Disabled by the delivery worker after failing for too long. */
export async function disableFailingEndpoint(trx: Db, id: string, reason: string): Promise<void> {
  const row = await repo.updateEndpoint(trx, id, { enabled: 0, disabled_reason: reason, updated_at: clock.now() });
  if (!row) return;
  await recordAudit(trx, 'webhook-delivery', 'webhookEndpoint.disable', toView(row, (await repo.subscriptionsOf(trx, [id])).get(id)!));
}

export async function listDeliveries(db: Db, id: string, limit: number): Promise<Delivery[]> {
  if (!(await repo.findEndpoint(db, id))) throw notFound(ENDPOINT_NOT_FOUND);
  const rows = await deliveries.listDeliveries(db, id, limit);
  return rows.map((r) => ({
    eventId: r.event_id,
    type: r.type,
    attempt: r.attempt,
    status: r.status as Delivery['status'],
    // The outbox row outlives its attempts (both are pruned after 30 days): absent, the attempt's own state stands.
    eventStatus: (r.event_status ?? r.status) as Delivery['eventStatus'],
    responseStatus: r.response_status,
    responseBody: r.response_body,
    durationMs: r.duration_ms,
    atEpochMillis: r.at,
  }));
}

export async function redeliver(trx: Db, id: string, eventId: string): Promise<void> {
  if (!(await repo.findEndpoint(trx, id))) throw notFound(ENDPOINT_NOT_FOUND);
  if (!(await outbox.redeliver(trx, id, eventId, clock.now()))) throw notFound('Event not found for this endpoint');
}

/** Queues a `ping` for this endpoint alone; returns its event id. */
export async function sendTestPing(trx: Db, id: string): Promise<string> {
  const row = await repo.findEndpoint(trx, id);
  if (!row) throw notFound(ENDPOINT_NOT_FOUND);
  if (row.enabled !== 1) throw conflict('Webhook endpoint is disabled: enable it to send a test');
  const event = newEvent(PING_EVENT_TYPE, { endpointId: id, message: 'Test event from the licensing service' });
  await outbox.enqueueFor(trx, id, event);
  return event.id;
}
