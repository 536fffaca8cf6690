// Changes committed on this instance, told in-process to the modules that keep something
// in memory (the sharing detector's alert settings), before the request that made them is
// answered. A change is heard as the audit entry it wrote (name and data), once its
// transaction has committed; a rolled-back one is never heard. Only transactions opened by
// `app.transaction` are heard: a listener sees other changes (another instance's, the
// CLI's) through its own polling, as it must anyway.
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/database.js';

export interface CommittedChange {
  /** The audit action, e.g. `products.update` (event-types.ts). */
  name: string;
  /** The entry's data as recorded (before it was stored as JSON). */
  data: unknown;
}

type Listener = (change: CommittedChange) => Promise<void> | void;

/** The open transactions of app.transaction, and the changes each has recorded so far. */
const open = new WeakMap<Db, { feed: ChangeFeed; changes: CommittedChange[] }>();

/** Called by recordAudit in the change's transaction: kept only when some listener hears the name. */
export function noteChange(trx: Db, name: string, data: unknown): void {
  const pending = open.get(trx);
  if (pending?.feed.hears(name)) pending.changes.push({ name, data });
}

export class ChangeFeed {
  private readonly listeners = new Map<string, Listener[]>();

  constructor(private readonly log: FastifyBaseLogger) {}

  /** Calls `listener` after each committed change of these names (awaited before the answer). */
  on(names: readonly string[], listener: Listener): void {
    for (const name of names) this.listeners.set(name, [...(this.listeners.get(name) ?? []), listener]);
  }

  hears(name: string): boolean {
    return this.listeners.has(name);
  }

  /** Runs `fn` in `transaction`; once it has committed, tells the listeners what it recorded. */
  async run<T>(transaction: <R>(fn: (trx: Db) => Promise<R>) => Promise<R>, fn: (trx: Db) => Promise<T>): Promise<T> {
    const changes: CommittedChange[] = [];
    const result = await transaction((trx) => {
      open.set(trx, { feed: this, changes });
      return fn(trx);
    });
    for (const change of changes) {
      for (const listener of this.listeners.get(change.name) ?? []) {
        // The change is committed: a listener that fails must not turn its answer into a 500.
        await Promise.resolve()
          .then(() => listener(change))
          .catch((err: Error) => this.log.warn({ error: err.message, change: change.name }, 'change listener failed'));
      }
    }
    return result;
  }
}
