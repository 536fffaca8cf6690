// The one way a test waits for something it cannot await directly (a delivery, another
// instance's poll, a lock another session waits on, a child process's output): it reads
// until `done` holds, and after the deadline fails naming what it waited for and what it
// read last. A read that throws ends the wait with its error (catch inside `read` what
// means "not yet").
export interface UntilOptions {
  /** The deadline, from the first read (default 15 s). */
  timeoutMs?: number;
  /** The pause between reads (default 20 ms). */
  everyMs?: number;
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
  { timeoutMs = 15_000, everyMs = 20 }: UntilOptions = {},
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what} (last read: ${describeValue(value)})`);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}
