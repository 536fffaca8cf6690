// When the next attempt of a failed event is due: the configured delays (DECISIONS.md
// default: about 3 days in 12 retries), each spread by ±20% so that the events of one
// outage do not all come back in the same second.

export const DEFAULT_RETRY_SCHEDULE_SECONDS = [5, 60, 300, 1800, 7200, 14400, 28800, 43200, 43200, 43200, 43200, 43200];

const JITTER = 0.2;

/** The delay after failed attempt number `attempt` (1-based); null: that was the last one. */
export function retryDelayMs(schedule: readonly number[], attempt: number, random = Math.random): number | null {
  const seconds = schedule[attempt - 1];
  if (seconds === undefined) return null;
  return Math.round(seconds * 1000 * (1 - JITTER + 2 * JITTER * random()));
}
