// The one way a test waits for something it cannot await directly (a delivery, another
// instance's poll, a lock another session waits on, a child process's output): it reads
// until `done` holds, and after the deadline fails naming what it waited for and what it
// read last. A read that throws ends the wait with its error, unless `retryOn` says the
// error means "not yet" (a server still starting refuses connections).
export interface UntilOptions {
  /** The deadline, from the first read (default 15 s). */
  timeoutMs?: number;
  /** The pause between reads (default 20 ms). */
  everyMs?: number;
  /** Errors of `read` that mean "not yet" (default: none). */
  retryOn?: (err: unknown) => boolean;
}

const describeValue = (value: unknown): string => {
  try {
    const text = JSON.stringify(value);
    return text === undefined ? String(value) : text.length > 500 ? `${text.slice(0, 500)}…` : text;
  } catch {
    return String(value);
  }
};

/** Waits for `what`: reads until `done(value)` (default: a truthy value); returns the value read last. */
export async function until<T>(
  what: string,
  read: () => T | Promise<T>,
  done: (value: T) => boolean = Boolean,
  { timeoutMs = 15_000, everyMs = 20, retryOn = () => false }: UntilOptions = {},
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    let last: string;
    try {
      const value = await read();
      if (done(value)) return value;
      last = `last read: ${describeValue(value)}`;
    } catch (err) {
      if (!retryOn(err)) throw err;
      last = `last read failed: ${(err as Error).message}`;
    }
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what} (${last})`);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}
