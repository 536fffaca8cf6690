// Group commit: work submitted while the event loop is busy (one poll phase's requests,
// or everything that arrived while earlier batches were committing) is handed to
// `runBatch` together, so many requests share one transaction and one commit. Each
// submitter's promise settles only when runBatch settles it, i.e. after its commit.

import { groupCommitObserved, reportBatch } from './observe.js';

export interface Pending<I, O> {
  item: I;
  resolve(value: O): void;
  reject(error: unknown): void;
}

export interface GroupCommitOptions {
  /** At most this many entries go in one batch (default 512). */
  maxBatch?: number;
  /** Batches allowed to run at once (default 1): more where each runs on its own connection. */
  maxInFlight?: number;
  /** Report each batch to the group-commit metrics (default true; false for batched reads, which commit nothing). */
  observed?: boolean;
  /**
   * When a batch is cut: 'poll' (default) after the event loop's poll phase (setImmediate),
   * so every request read in it joins; 'callback' as soon as the callback that submitted and
   * every promise continuation it set off have run (process.nextTick), so the answers one
   * settled batch releases together form the next batch without another turn of the loop.
   */
  gather?: 'poll' | 'callback';
}

export class GroupCommit<I, O> {
  private queue: Pending<I, O>[] = [];
  private scheduled = false;
  private readonly running = new Set<Promise<void>>();
  private readonly maxBatch: number;
  private readonly maxInFlight: number;
  private readonly observed: boolean;
  private readonly defer: (run: () => void) => void;

  /**
   * `runBatch` must settle every entry it is given; if it throws, the entries it left
   * unsettled are rejected with that error.
   */
  constructor(
    private readonly runBatch: (batch: Pending<I, O>[]) => Promise<void> | void,
    { maxBatch = 512, maxInFlight = 1, observed = true, gather = 'poll' }: GroupCommitOptions = {},
  ) {
    // A nextTick queued from a promise continuation runs once the microtask queue is empty.
    this.defer = gather === 'poll' ? setImmediate : process.nextTick;
    this.maxBatch = maxBatch;
    this.maxInFlight = maxInFlight;
    this.observed = observed;
  }

  submit(item: I): Promise<O> {
    return new Promise<O>((resolve, reject) => {
      this.queue.push({ item, resolve, reject });
      this.schedule();
    });
  }

  /** Resolves once everything submitted so far has been processed. */
  async drain(): Promise<void> {
    while (this.running.size > 0 || this.queue.length > 0) {
      if (this.running.size > 0) await Promise.all(this.running);
      else await new Promise((resolve) => setImmediate(resolve));
    }
  }

  private schedule(): void {
    if (this.scheduled || this.running.size >= this.maxInFlight) return;
    this.scheduled = true;
    this.defer(() => {
      this.scheduled = false;
      if (this.queue.length === 0) return;
      const run: Promise<void> = this.flush(this.queue.splice(0, this.maxBatch)).finally(() => {
        this.running.delete(run);
        if (this.queue.length > 0) this.schedule();
      });
      this.running.add(run);
      if (this.queue.length > 0) this.schedule(); // more than maxBatch were waiting
    });
  }

  private async flush(batch: Pending<I, O>[]): Promise<void> {
    const started = this.observed && groupCommitObserved() ? performance.now() : 0;
    try {
      await this.runBatch(batch);
    } catch (error) {
      // Entries runBatch already settled stay as they are: settling twice is a no-op.
      for (const p of batch) p.reject(error);
    }
    if (started > 0) reportBatch(batch.length, (performance.now() - started) / 1000);
  }
}
