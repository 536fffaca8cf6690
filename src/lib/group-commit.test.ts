import { describe, expect, it } from 'vitest';
import { GroupCommit, type Pending } from './group-commit.js';

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('GroupCommit', () => {
  it('hands work submitted in one event-loop turn to one batch, settled in order', async () => {
    const batches: number[][] = [];
    const group = new GroupCommit<number, number>((batch: Pending<number, number>[]) => {
      batches.push(batch.map((p) => p.item));
      for (const p of batch) p.resolve(p.item * 2);
    });
    const results = await Promise.all([1, 2, 3].map((n) => group.submit(n)));
    expect(results).toEqual([2, 4, 6]);
    expect(batches).toEqual([[1, 2, 3]]);
  });

  it('collects what arrives while a batch is running into the next batch', async () => {
    const batches: number[][] = [];
    let release!: () => void;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const group = new GroupCommit<number, number>(async (batch) => {
      batches.push(batch.map((p) => p.item));
      if (batches.length === 1) await gate;
      for (const p of batch) p.resolve(p.item);
    });
    const first = group.submit(1);
    await tick();
    const later = [group.submit(2), group.submit(3)];
    await tick();
    expect(batches).toEqual([[1]]);
    release();
    await Promise.all([first, ...later]);
    expect(batches).toEqual([[1], [2, 3]]);
  });

  it('rejects every unsettled entry when the batch throws, and respects the batch size limit', async () => {
    const sizes: number[] = [];
    const group = new GroupCommit<number, number>((batch) => {
      sizes.push(batch.length);
      batch[0]!.resolve(0);
      throw new Error('disk full');
    }, { maxBatch: 2 });
    const outcomes = await Promise.allSettled([1, 2, 3].map((n) => group.submit(n)));
    expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(sizes).toEqual([2, 1]);
    await group.drain();
  });

  it('with maxInFlight 2, runs the next batch while the first is still running', async () => {
    const batches: number[][] = [];
    const gates: (() => void)[] = [];
    const group = new GroupCommit<number, number>(
      async (batch) => {
        batches.push(batch.map((p) => p.item));
        await new Promise<void>((resolve) => gates.push(resolve));
        for (const p of batch) p.resolve(p.item);
      },
      { maxInFlight: 2 },
    );
    const first = group.submit(1);
    await tick();
    const second = group.submit(2);
    await tick();
    const third = group.submit(3);
    await tick();
    expect(batches).toEqual([[1], [2]]); // the third waits for a free slot
    gates[0]!();
    await first;
    await tick(); // the first batch's slot is freed...
    await tick(); // ...and the waiting entry is flushed into it
    expect(batches).toEqual([[1], [2], [3]]);
    gates[1]!();
    gates[2]!();
    expect(await Promise.all([second, third])).toEqual([2, 3]);
    await group.drain();
  });

  it("with gather 'callback', takes what one settled promise's continuations submit, before the loop turns", async () => {
    const batches: string[][] = [];
    const group = new GroupCommit<string, string>((batch) => {
      batches.push(batch.map((p) => p.item));
      for (const p of batch) p.resolve(p.item);
    }, { gather: 'callback' });
    let settle!: () => void;
    const committed = new Promise<void>((resolve) => {
      settle = resolve;
    });
    // Continuations of different depths, as request handlers awaiting through several async functions.
    const deep = async (n: number, name: string): Promise<string> => (n === 0 ? group.submit(name) : deep(n - 1, name));
    const answers = ['a', 'b', 'c'].map((name, i) => committed.then(() => deep(i * 3, name)));
    let turned = false;
    setImmediate(() => {
      turned = true;
    });
    settle();
    expect(await Promise.all(answers)).toEqual(['a', 'b', 'c']);
    expect(batches).toEqual([['a', 'b', 'c']]);
    expect(turned).toBe(false); // cut within the same callback, not after the poll phase
  });
});
