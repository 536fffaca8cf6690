// Downloads per local day over the chart's window, oldest day first, zeros included.
import { lastDays, localDay } from '../../lib/days';

export interface DayDownloads {
  /** Local calendar day, `YYYY-MM-DD`. */
  day: string;
  downloads: number;
}

export function downloadsPerDay(times: readonly number[], days: number, now: number = Date.now()): DayDownloads[] {
  const result = lastDays(days, now).map((day) => ({ day, downloads: 0 }));
  const index = new Map(result.map((entry) => [entry.day, entry]));
  for (const time of times) {
    const entry = index.get(localDay(time));
    if (entry) entry.downloads += 1;
  }
  return result;
}
