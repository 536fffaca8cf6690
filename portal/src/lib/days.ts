// Local calendar days for the charts: the day of a moment, the start of the last N days,
// and those days themselves. Built from calendar fields, so a daylight-saving change never
// shifts, skips or repeats a day.

/** `YYYY-MM-DD` of the local calendar day holding `epochMillis`. */
export function localDay(epochMillis: number): string {
  const date = new Date(epochMillis);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

/**
 * Start (local midnight) of the first of the last `days` local days ending today: the
 * `since` of a chart's window.
 */
export function windowStart(days: number, now: number = Date.now()): number {
  const today = new Date(now);
  return new Date(today.getFullYear(), today.getMonth(), today.getDate() - (days - 1)).getTime();
}

/** The last `days` local days ending today, oldest first, as `YYYY-MM-DD`. */
export function lastDays(days: number, now: number = Date.now()): string[] {
  const today = new Date(now);
  const result: string[] = [];
  // Noon of each calendar day, so a daylight-saving change never skips or repeats a day.
  for (let offset = days - 1; offset >= 0; offset -= 1) {
    result.push(localDay(new Date(today.getFullYear(), today.getMonth(), today.getDate() - offset, 12).getTime()));
  }
  return result;
}
