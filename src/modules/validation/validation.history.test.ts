import { describe, expect, it } from 'vitest';
import { PruneSchedule } from './validation.history.js';

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
