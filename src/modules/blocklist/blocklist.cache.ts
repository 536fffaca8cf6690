// The blocklist as this instance enforces it. The validation path asks one question,
// check(), answered from memory (rule-index.ts): no query per request. The index is rebuilt
// from the database after a change made here (reload, before the change is answered) and
// whenever the shared version counter moves (one tiny read every POLL_MS, not one per
// request, so a change made on another instance is in force here well within a second).
// Hits are counted in memory and added
// to the rules every HIT_FLUSH_MS, each rule's `blocklist.hit` event claimed at most once a
// minute across instances by a conditional update in the same transaction.
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/database.js';
import { BLOCKLIST_HIT_EVENT_TYPE } from '../events/event-types.js';
import { newEvent } from '../events/events.js';
import { enqueue } from '../events/outbox.repository.js';
import type { EventGate } from '../events/subscriptions.js';
import * as repo from './blocklist.repository.js';
import { toRule } from './blocklist.service.js';
import { RuleIndex, type IndexedRule, type Presented, type RuleMode, type RuleType } from './rule-index.js';
import { MINUTE_MS } from '../../lib/time.js';
import { clock } from '../../lib/clock.js';

export const POLL_MS = 100;
export const HIT_FLUSH_MS = 1000;
export const HIT_EVENT_INTERVAL_MS = MINUTE_MS;
export const HIT_EVENT_TYPE = BLOCKLIST_HIT_EVENT_TYPE;

interface PendingHits {
  count: number;
  lastHitAt: number;
  /** the latest request it matched, for the event */
  hit: { licenseId: string; ip: string; hwid: string | null };
}

export class Blocklist {
  private index = new RuleIndex([]);
  private version: number | null = null;
  private pending = new Map<string, PendingHits>();
  private loading: Promise<void> = Promise.resolve();
  /** reloads queued or running: a poll does not queue another meanwhile */
  private queued = 0;
  private flushing: Promise<void> | null = null;
  private timers: NodeJS.Timeout[] = [];

  constructor(
    private readonly db: Db,
    private readonly events: EventGate,
    private readonly log?: FastifyBaseLogger,
  ) {}

  /** Whether a `block` rule in force matches; every matching rule (block or flag) counts a hit. */
  check(req: Presented, now = clock.now()): boolean {
    const matched = this.index.match(req, now);
    if (matched.length === 0) return false;
    let blocked = false;
    for (const rule of matched) {
      if (rule.mode === 'block') blocked = true;
      this.countHit(rule, req, now);
    }
    return blocked;
  }

  /** How many rules the index holds (for tests and the metrics). */
  get size(): number {
    return this.index.size;
  }

  private countHit(rule: IndexedRule, req: Presented, now: number): void {
    const hit = { licenseId: req.licenseId, ip: req.ip, hwid: req.hwid ?? null };
    const pending = this.pending.get(rule.id);
    if (pending) {
      pending.count += 1;
      pending.lastHitAt = now;
      pending.hit = hit;
    } else this.pending.set(rule.id, { count: 1, lastHitAt: now, hit });
  }

  /** Rebuilds the index from the database; calls run one after another, so the last one wins. */
  reload(): Promise<void> {
    this.queued += 1;
    const run = this.loading.catch(() => undefined).then(() => this.load()).finally(() => (this.queued -= 1));
    this.loading = run;
    return run;
  }

  private async load(): Promise<void> {
    // The version first: a change committed between the two reads moves it again, and the next poll reloads.
    const version = await repo.readVersion(this.db);
    const rows = await repo.rulesInForce(this.db, clock.now());
    this.index = new RuleIndex(
      rows.map((row) => ({
        id: row.id,
        type: row.type as RuleType,
        value: row.value,
        mode: row.mode as RuleMode,
        productId: row.product_id,
        licenseId: row.license_id,
        expiresAt: row.expires_at,
      })),
    );
    this.version = version;
  }

  /** One poll: reloads when another instance changed the rules. A failed read keeps the index (an outage shows elsewhere). */
  async poll(): Promise<void> {
    if (this.queued > 0) return;
    try {
      const version = await repo.readVersion(this.db);
      if (version !== this.version && this.queued === 0) await this.reload();
    } catch (err) {
      this.log?.warn({ error: (err as Error).message }, 'blocklist: version poll failed; the rules in memory stay in force');
    }
  }

  /** Adds the hits counted until now to the rules, with their events (resolves once they are written). */
  async flushHits(now = clock.now()): Promise<void> {
    // A flush in flight took only the hits counted before it: wait for it, then write the rest.
    while (this.flushing) await this.flushing;
    if (this.pending.size === 0) return;
    this.flushing = this.flush(now).finally(() => {
      this.flushing = null;
    });
    return this.flushing;
  }

  private async flush(now: number): Promise<void> {
    if (this.pending.size === 0) return;
    const batch = this.pending;
    this.pending = new Map();
    const wantsEvents = this.events.wants(HIT_EVENT_TYPE);
    try {
      await this.db.transaction().execute(async (trx) => {
        for (const [id, hits] of batch) {
          await repo.addHits(trx, id, hits.count, hits.lastHitAt);
          if (!wantsEvents) continue;
          const row = await repo.claimHitEvent(trx, id, now, HIT_EVENT_INTERVAL_MS);
          if (row) await enqueue(trx, newEvent(HIT_EVENT_TYPE, { ...toRule(row), ...hits.hit }, now));
        }
      });
    } catch (err) {
      // Counted again with the next flush: hits lag, they are not lost while the instance runs.
      for (const [id, hits] of batch) {
        const later = this.pending.get(id);
        this.pending.set(id, later ? { count: later.count + hits.count, lastHitAt: later.lastHitAt, hit: later.hit } : hits);
      }
      this.log?.warn({ error: (err as Error).message }, 'blocklist: hit counters not written; retrying');
    }
  }

  async start(): Promise<void> {
    await this.reload();
    const every = (ms: number, fn: () => Promise<void>) => {
      const timer = setInterval(() => void fn(), ms);
      timer.unref();
      this.timers.push(timer);
    };
    every(POLL_MS, () => this.poll());
    every(HIT_FLUSH_MS, () => this.flushHits());
  }

  async stop(): Promise<void> {
    for (const timer of this.timers) clearInterval(timer);
    this.timers = [];
    await this.loading.catch(() => undefined);
    await this.flushing;
    await this.flushHits().catch(() => undefined);
  }
}
