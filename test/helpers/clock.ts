// A clock a test moves, for expiry, grace, trials, scans and windows without waiting in
// real time. It moves src/lib/clock.ts, so every app started in the test's process
// (startTestApp, startTwoInstances) moves with it; a child process keeps the system clock
// (give it expiries already past or far ahead instead).
// Time flows on from where it is set (an offset to the system clock), so what the test
// does not move (deliveries, retries, leases) runs as usual; freeze() stops it, for a test
// of one exact moment.
import { onTestFinished } from 'vitest';
import { clock } from '../../src/lib/clock.js';

export interface TestClock {
  /** The clock's now. */
  now(): number;
  /** Sets now to `epochMillis`. */
  set(epochMillis: number): void;
  /** Moves now `ms` ahead. */
  advance(ms: number): void;
  /** Stops the clock where it is, until set or advanced. */
  freeze(): void;
  /** Back to the system clock (done by itself when the test ends). */
  restore(): void;
}

/** Call inside a test: the app's clock until the test ends. */
export function useTestClock(): TestClock {
  let offset = 0;
  let frozenAt: number | null = null;
  clock.now = () => frozenAt ?? Date.now() + offset;
  const restore = () => {
    clock.now = Date.now;
  };
  onTestFinished(restore);
  const set = (epochMillis: number) => {
    if (frozenAt !== null) frozenAt = epochMillis;
    else offset = epochMillis - Date.now();
  };
  return {
    now: () => clock.now(),
    set,
    advance: (ms) => set(clock.now() + ms),
    freeze: () => {
      frozenAt = clock.now();
    },
    restore,
  };
}
