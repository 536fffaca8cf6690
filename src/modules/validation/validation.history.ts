// When to prune a license's attempt history. Deleting old attempts on every commit
// dirties the old end of the table and its indexes each time; deleting them in chunks of
// a tenth of VALIDATION_HISTORY_MAX costs a fraction of that. Between prunes a license
// may store up to that many extra attempts (per instance); reads show only the most
// recent VALIDATION_HISTORY_MAX (licenses.service.ts), so what the API shows is exact.
export class PruneSchedule {
  private readonly every: number;
  private readonly pending = new Map<string, number>();

  /** historyMax 0: keep everything, never prune. */
  constructor(readonly historyMax: number) {
    this.every = historyMax > 0 ? Math.max(1, Math.ceil(historyMax / 10)) : 0;
  }

  /** Counts `added` new attempts of the license; true when its history is due for pruning. */
  due(licenseId: string, added = 1): boolean {
    if (this.every === 0) return false;
    const count = (this.pending.get(licenseId) ?? 0) + added;
    if (count < this.every) {
      this.pending.set(licenseId, count);
      return false;
    }
    this.pending.delete(licenseId);
    return true;
  }
}

/** At most one history prune per license in this time (PruneThrottle). */
export const PRUNE_INTERVAL_MS = 1000;
/** Licenses whose last prune time is kept before the old ones are forgotten. */
const PRUNED_AT_KEPT = 10_000;

/**
 * Runs a license's due prune beside the answers, one at a time per license and at most one
 * per PRUNE_INTERVAL_MS: a license validated thousands of times a second would otherwise be
 * pruned every tenth of its history, each DELETE on PostgreSQL walking the dead rows the last
 * ones left at the old end of its index (docs/scale.md). A prune asked for sooner runs at the
 * interval's end, so a history is never left over long.
 */
export class PruneThrottle {
  private readonly running = new Map<string, Promise<void>>();
  private readonly startedAt = new Map<string, number>();
  private readonly waiting = new Map<string, NodeJS.Timeout>();

  constructor(
    private readonly prune: (licenseId: string) => Promise<void>,
    private readonly intervalMs = PRUNE_INTERVAL_MS,
    private readonly now: () => number = () => performance.now(),
  ) {}

  request(licenseId: string): void {
    if (this.running.has(licenseId) || this.waiting.has(licenseId)) return;
    const wait = (this.startedAt.get(licenseId) ?? -Infinity) + this.intervalMs - this.now();
    if (wait <= 0) return this.start(licenseId);
    const timer = setTimeout(() => {
      this.waiting.delete(licenseId);
      if (!this.running.has(licenseId)) this.start(licenseId);
    }, wait);
    timer.unref(); // a waiting prune never keeps the process alive
    this.waiting.set(licenseId, timer);
  }

  /** Drops the waiting prunes and waits for the running ones. */
  async close(): Promise<void> {
    for (const timer of this.waiting.values()) clearTimeout(timer);
    this.waiting.clear();
    await Promise.all(this.running.values());
  }

  private start(licenseId: string): void {
    const now = this.now();
    this.startedAt.set(licenseId, now);
    if (this.startedAt.size > PRUNED_AT_KEPT) {
      for (const [id, at] of this.startedAt) if (at <= now - this.intervalMs) this.startedAt.delete(id);
    }
    const run = this.prune(licenseId)
      .catch(() => undefined) // the next due prune tries again; a database outage shows on the requests themselves
      .finally(() => this.running.delete(licenseId));
    this.running.set(licenseId, run);
  }
}
