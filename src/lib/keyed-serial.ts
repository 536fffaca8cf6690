// Runs the tasks given for one key one after another, and tasks of different keys side by
// side. The PostgreSQL validator runs its row-locking transactions through one: requests
// that would queue on a license's row lock wait here instead, holding no pooled
// connection, so one busy license cannot take the whole pool (and time out the requests
// of every other license waiting for a connection).
export class KeyedSerial {
  /** key -> the tail of its chain (removed once the chain is idle) */
  private readonly tails = new Map<string, Promise<unknown>>();

  run<T>(key: string, task: () => Promise<T>): Promise<T> {
    const previous = this.tails.get(key);
    const result = previous === undefined ? task() : previous.then(task, task);
    const tail = result.catch(() => undefined).finally(() => {
      if (this.tails.get(key) === tail) this.tails.delete(key);
    });
    this.tails.set(key, tail);
    return result;
  }

  /** Keys with a task running or waiting (for tests). */
  get size(): number {
    return this.tails.size;
  }
}
