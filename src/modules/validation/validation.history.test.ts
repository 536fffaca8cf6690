import { describe, expect, it } from 'vitest';
import { until } from '../../../test/helpers/until.js';
import { PruneSchedule, PruneThrottle } from './validation.history.js';

describe('PruneSchedule', () => {
  it('is due every tenth of the history length per license', () => {
    const schedule = new PruneSchedule(100);
    const dueAt = Array.from({ length: 30 }, (_, i) => i + 1).filter(() => schedule.due('a'));
    expect(dueAt).toEqual([10, 20, 30]);
    expect(schedule.due('b', 9)).toBe(false);
    expect(schedule.due('b', 1)).toBe(true);
    expect(schedule.due('c', 25)).toBe(true);
  });

  it('prunes on every attempt for short histories and never when the history is unlimited', () => {
    const short = new PruneSchedule(5);
    expect([1, 2, 3].map(() => short.due('a'))).toEqual([true, true, true]);
    const unlimited = new PruneSchedule(0);
    expect(Array.from({ length: 50 }, () => unlimited.due('a')).some(Boolean)).toBe(false);
  });
});

describe('PruneThrottle', () => {
  /** A prune that records when it started and finishes when told. */
  const recorder = () => {
    const started: { licenseId: string; at: number }[] = [];
    const finish: (() => void)[] = [];
    const prune = (licenseId: string) =>
      new Promise<void>((resolve) => {
        started.push({ licenseId, at: performance.now() });
        finish.push(resolve);
      });
    return { started, finishAll: () => finish.splice(0).forEach((f) => f()), prune };
  };

  it('runs one prune per license at a time, at most one per interval, and the one asked for meanwhile at its end', async () => {
    const { started, finishAll, prune } = recorder();
    const throttle = new PruneThrottle(prune, 200);
    throttle.request('a');
    throttle.request('a'); // running: nothing more
    throttle.request('b'); // another license: at once
    expect(started.map((s) => s.licenseId)).toEqual(['a', 'b']);
    finishAll();
    await new Promise((resolve) => setImmediate(resolve));
    for (let i = 0; i < 50; i += 1) throttle.request('a'); // due again and again within the interval: one waits
    expect(started).toHaveLength(2);
    await until('the waiting prune of a', async () => started.length, (n) => n === 3, { timeoutMs: 2000 });
    expect(started[2]!.licenseId).toBe('a');
    expect(started[2]!.at - started[0]!.at).toBeGreaterThanOrEqual(195);
    finishAll();
    await throttle.close();
  });

  it('close drops the waiting prunes and waits for the running ones', async () => {
    const { started, finishAll, prune } = recorder();
    const throttle = new PruneThrottle(prune, 100);
    throttle.request('a');
    finishAll();
    await new Promise((resolve) => setImmediate(resolve));
    throttle.request('a'); // waits for the interval
    throttle.request('b'); // runs
    let closed = false;
    const closing = throttle.close().then(() => (closed = true));
    await new Promise((resolve) => setTimeout(resolve, 150)); // past the interval: a dropped prune would have run by now
    expect(closed).toBe(false); // b still runs
    finishAll();
    await closing;
    expect(started.map((s) => s.licenseId)).toEqual(['a', 'b']);
  });
});
