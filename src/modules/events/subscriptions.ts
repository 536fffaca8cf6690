// Which event types some enabled endpoint receives, as this instance knows it: read on the
// validation hot path without a query, so that with no endpoint a validation costs what it
// cost before events existed. Refreshed every second and at once after a change made on
// this instance; a change made on another instance is seen within a second. Audited changes
// do not use it: their INSERT … SELECT finds the subscribers in the change's own transaction.
import type { Db } from '../../db/database.js';
import { ALL_EVENTS } from './event-types.js';
import { subscribedTypes } from './outbox.repository.js';

export const SUBSCRIPTIONS_REFRESH_MS = 1000;

/** Whether an event of this type should be queued at all (someone may want it). */
export interface EventGate {
  wants(type: string): boolean;
}

export const NO_EVENTS: EventGate = { wants: () => false };

export class Subscriptions implements EventGate {
  private types = new Set<string>();
  private timer: NodeJS.Timeout | null = null;
  private refreshing: Promise<void> | null = null;

  constructor(private readonly db: Db) {}

  wants(type: string): boolean {
    return this.types.size > 0 && (this.types.has(type) || this.types.has(ALL_EVENTS));
  }

  /** Reads the current set; a failed read keeps the last one (the database's outage shows elsewhere). */
  refresh(): Promise<void> {
    this.refreshing ??= subscribedTypes(this.db)
      .then((types) => {
        this.types = new Set(types);
      })
      .catch(() => undefined)
      .finally(() => {
        this.refreshing = null;
      });
    return this.refreshing;
  }

  /** After a change on this instance: a read that began before it may have missed it. */
  async reload(): Promise<void> {
    await this.refreshing;
    await this.refresh();
  }

  async start(): Promise<void> {
    await this.refresh();
    this.timer = setInterval(() => void this.refresh(), SUBSCRIPTIONS_REFRESH_MS);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.refreshing;
  }
}
