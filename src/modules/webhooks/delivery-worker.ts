// The delivery worker, one per instance: every half second, and at once when a hand frees
// while more is due, it leases the due rows of the outbox (as many as it has free hands, a
// few per endpoint so one slow receiver never holds up the others), sends each on its own,
// and records each attempt with the row's next state in one transaction. The lease outlives an attempt's timeout,
// so no other worker sends the same row meanwhile; a worker killed mid-attempt leaves a
// lease that runs out, and the row is sent again (at least once, never lost).
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/database.js';
import type { Storage } from '../../db/storage/storage.js';
import { newId } from '../../lib/ids.js';
import { reportWebhookAttempt } from '../../lib/observe.js';
import { disableFailingEndpoint, endpointLockKey } from './endpoints.service.js';
import { findEndpoints, updateEndpoint, type EndpointRow } from './endpoints.repository.js';
import * as outbox from '../events/outbox.repository.js';
import * as deliveries from './deliveries.repository.js';
import { retryDelayMs } from './retry-schedule.js';
import { discordNames } from './discord-names.js';
import { sendAttempt, type AttemptResult } from './send-attempt.js';
import { DAY_MS, HOUR_MS } from '../../lib/time.js';
import { clock } from '../../lib/clock.js';

export interface DeliveryOptions {
  retryScheduleSeconds: readonly number[];
  allowPrivateNetworks: boolean;
  /** One attempt's deadline (DECISIONS.md: 10 s). */
  timeoutMs?: number;
  /** Attempts in flight at once. */
  concurrency?: number;
  /** Attempts in flight at once for one endpoint. */
  perEndpoint?: number;
  pollMs?: number;
}

export const ATTEMPT_TIMEOUT_MS = 10_000;
/** An endpoint failing this long without a success is disabled. */
export const DISABLE_AFTER_MS = 5 * DAY_MS;
/** Settled events and delivery logs are kept this long. */
export const DELIVERY_LOG_RETENTION_MS = 30 * DAY_MS;
const PRUNE_EVERY_MS = HOUR_MS;

export class DeliveryWorker {
  /** This worker's name on the leases it holds. */
  readonly owner = newId();
  private readonly timeoutMs: number;
  private readonly concurrency: number;
  private readonly perEndpoint: number;
  private readonly inFlight = new Set<Promise<void>>();
  /** Attempts in flight per endpoint id. */
  private readonly inFlightFor = new Map<string, number>();
  /** The last poll found work due: claim again as soon as a hand frees. */
  private backlog = false;
  private timer: NodeJS.Timeout | null = null;
  private polling = false;
  private stopped = false;
  private lastPrune = 0;

  constructor(
    private readonly storage: Storage,
    private readonly options: DeliveryOptions,
    private readonly log: FastifyBaseLogger,
  ) {
    this.timeoutMs = options.timeoutMs ?? ATTEMPT_TIMEOUT_MS;
    this.concurrency = options.concurrency ?? 16;
    this.perEndpoint = options.perEndpoint ?? 4;
  }

  /** Longer than an attempt can take, so a lease is never taken over from a live worker. */
  private get leaseMs(): number {
    return this.timeoutMs + 5000;
  }

  start(): void {
    this.timer = setInterval(() => void this.poll(), this.options.pollMs ?? 500);
    this.timer.unref();
  }

  /** Stops claiming and waits for the attempts in flight (each ends within its timeout). */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    while (this.polling || this.inFlight.size > 0) await Promise.race([...this.inFlight, new Promise((r) => setTimeout(r, 20))]);
  }

  /** Claims what is due and starts sending it; resolves once the claim is made. */
  async poll(): Promise<void> {
    if (this.stopped || this.polling) return;
    const room = this.concurrency - this.inFlight.size;
    if (room <= 0) return;
    this.polling = true;
    try {
      const { db } = this.storage;
      const now = clock.now();
      if (now - this.lastPrune > PRUNE_EVERY_MS) {
        this.lastPrune = now;
        await outbox.pruneSettled(db, now - DELIVERY_LOG_RETENTION_MS);
        await deliveries.pruneDeliveries(db, now - DELIVERY_LOG_RETENTION_MS);
      }
      this.backlog = await outbox.anyDue(db, now);
      if (!this.backlog) return; // a read, so an idle worker takes no write lock
      const busy = [...this.inFlightFor].filter(([, n]) => n >= this.perEndpoint).map(([id]) => id);
      const claim = { owner: this.owner, now, leaseUntil: now + this.leaseMs, limit: room, perEndpoint: this.perEndpoint, busy };
      const rows = await outbox.claimDue(db, claim);
      const endpoints = new Map((await findEndpoints(db, [...new Set(rows.map((r) => r.endpoint_id))])).map((e) => [e.id, e]));
      for (const row of rows) this.track(row.endpoint_id, this.attempt(row, endpoints.get(row.endpoint_id)));
    } catch (err) {
      this.log.warn({ error: (err as Error).message }, 'webhook delivery: cannot claim due events; trying again shortly');
    } finally {
      this.polling = false;
    }
  }

  /** Counts an attempt in flight until it ends, then claims more if more may be due. */
  private track(endpointId: string, attempt: Promise<void>): void {
    this.inFlightFor.set(endpointId, (this.inFlightFor.get(endpointId) ?? 0) + 1);
    const tracked = attempt.finally(() => {
      this.inFlight.delete(tracked);
      const left = (this.inFlightFor.get(endpointId) ?? 1) - 1;
      if (left === 0) this.inFlightFor.delete(endpointId);
      else this.inFlightFor.set(endpointId, left);
      // Claim again once this endpoint has room: while it is at its cap a claim would
      // only walk its backlog to find nothing.
      if (this.backlog && left < this.perEndpoint) void this.poll();
    });
    this.inFlight.add(tracked);
  }

  private async attempt(row: outbox.OutboxRow, endpoint: EndpointRow | undefined): Promise<void> {
    if (!endpoint) return; // deleted meanwhile: its rows went with it
    const names = endpoint.format === 'discord' ? await discordNames(this.storage.db, row.type, row.body).catch(() => ({})) : undefined;
    const result = await sendAttempt(
      {
        url: endpoint.url,
        format: endpoint.format,
        secret: endpoint.secret,
        previousSecret: Number(endpoint.previous_secret_until) > clock.now() ? endpoint.previous_secret : null,
      },
      { id: row.event_id, type: row.type, body: row.body, names },
      { timeoutMs: this.timeoutMs, allowPrivateNetworks: this.options.allowPrivateNetworks },
    );
    try {
      const status = await this.record(row, endpoint, result);
      if (status) reportWebhookAttempt(status === 'pending' ? 'retry' : status);
    } catch (err) {
      // Not recorded: the lease runs out and the event is sent again (at least once).
      this.log.warn({ error: (err as Error).message, eventId: row.event_id }, 'webhook delivery: attempt made but not recorded');
    }
  }

  /** The row's new status, or null when another worker holds it now. */
  private record(row: outbox.OutboxRow, endpoint: EndpointRow, result: AttemptResult): Promise<outbox.Settlement['status'] | null> {
    const now = clock.now();
    const attempt = row.attempts + 1;
    const delay = result.delivered ? null : retryDelayMs(this.options.retryScheduleSeconds, attempt);
    const status = result.delivered ? 'delivered' : delay === null ? 'failed' : 'pending';
    return this.storage.transaction(async (trx) => {
      await this.storage.lock(trx, endpointLockKey(endpoint.id)); // not while the endpoint is deleted
      const held = await outbox.settle(trx, row.id, this.owner, { status, attempts: attempt, nextAttemptAt: now + (delay ?? 0) });
      if (!held) return null; // the lease ran out and another worker has the row: its record counts
      await deliveries.insertDelivery(trx, {
        id: newId(),
        endpoint_id: row.endpoint_id,
        event_id: row.event_id,
        type: row.type,
        attempt,
        status,
        response_status: result.status,
        response_body: result.body,
        duration_ms: result.durationMs,
        at: now,
      });
      await this.updateHealth(trx, endpoint.id, result.delivered, now);
      return status;
    });
  }

  /** A success ends a run of failures; five days of failures disable the endpoint. */
  private async updateHealth(trx: Db, id: string, delivered: boolean, now: number) {
    const current = (await findEndpoints(trx, [id]))[0];
    if (!current) return;
    if (delivered) {
      if (current.failing_since !== null) await updateEndpoint(trx, id, { failing_since: null });
      return;
    }
    if (current.failing_since === null) await updateEndpoint(trx, id, { failing_since: now });
    else if (current.enabled === 1 && now - current.failing_since >= DISABLE_AFTER_MS) {
      await disableFailingEndpoint(trx, id, 'every attempt failed for 5 days');
      this.log.warn({ endpointId: id }, 'webhook endpoint disabled after failing for 5 days');
    }
  }
}
