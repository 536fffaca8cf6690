// Group commit: work submitted while the event loop is busy (one poll phase's requests,
// or everything that arrived while the previous batch was committing) is handed to
// `runBatch` together, so many requests share one transaction and one commit. Each
// submitter's promise settles only when runBatch settles it, i.e. after its commit.

export interface Pending<I, O> {
  item: I;
  resolve(value: O): void;
  reject(error: unknown): void;
}

export class GroupCommit<I, O> {
  private queue: Pending<I, O>[] = [];
  private scheduled = false;
  private running: Promise<void> | null = null;

  /**
   * `runBatch` must settle every entry it is given; if it throws, the entries it left
   * unsettled are rejected with that error. At most `maxBatch` entries go in one batch.
   */
  constructor(
    private readonly runBatch: (batch: Pending<I, O>[]) => Promise<void> | void,
    private readonly maxBatch = 512,
  ) {}

  submit(item: I): Promise<O> {
    return new Promise<O>((resolve, reject) => {
      this.queue.push({ item, resolve, reject });
      this.schedule();
    });
  }

  /** Resolves once everything submitted so far has been processed. */
  async drain(): Promise<void> {
    while (this.running || this.queue.length > 0) {
      if (this.running) await this.running;
      else await new Promise((resolve) => setImmediate(resolve));
    }
  }

  private schedule(): void {
    if (this.scheduled || this.running) return;
    this.scheduled = true;
    // setImmediate runs after the current poll phase: every request whose body was read
    // in this loop iteration joins the batch.
    setImmediate(() => {
      this.scheduled = false;
      this.running = this.flush().finally(() => {
        this.running = null;
        if (this.queue.length > 0) this.schedule();
      });
    });
  }

  private async flush(): Promise<void> {
    const batch = this.queue.splice(0, this.maxBatch);
    try {
      await this.runBatch(batch);
    } catch (error) {
      // Entries runBatch already settled stay as they are: settling twice is a no-op.
      for (const p of batch) p.reject(error);
    }
  }
}
