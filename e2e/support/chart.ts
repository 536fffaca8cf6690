// The dashboard chart as numbers: its hidden table read from the page, and what it
// should hold for given attempts in a given time zone (computed here with Intl, apart
// from the portal's own grouping code).
import type { Page } from 'playwright-core';

export type DayRow = [day: string, successful: number, failed: number];

/** Rows of the validations-per-day table, oldest day first. */
export function chartRows(page: Page): Promise<DayRow[]> {
  return page
    .getByTestId('validations-chart')
    .locator('tbody tr')
    .evaluateAll((rows) =>
      rows.map((row) => {
        // Typed structurally: this project compiles without the DOM library.
        const cells = Array.from((row as unknown as { cells: ArrayLike<{ textContent: string | null }> }).cells);
        const [day, successful, failed] = cells.map((cell) => cell.textContent ?? '');
        return [day, Number(successful), Number(failed)] as DayRow;
      }),
    );
}

/** `YYYY-MM-DD` of `epochMillis` in `timeZone`. */
export const dayIn = (timeZone: string, epochMillis: number) =>
  new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(epochMillis);

/** The non-empty days the chart should show: attempts of the last `days` days in `timeZone`. */
export function expectedDays(attempts: [timestamp: number, successful: boolean][], timeZone: string, days: number, now: number): DayRow[] {
  const shown = new Set(Array.from({ length: days }, (_, i) => dayIn(timeZone, now - i * 86_400_000)));
  const counts = new Map<string, DayRow>();
  for (const [timestamp, successful] of attempts) {
    const day = dayIn(timeZone, timestamp);
    if (!shown.has(day)) continue;
    const row = counts.get(day) ?? [day, 0, 0];
    row[successful ? 1 : 2] += 1;
    counts.set(day, row);
  }
  return [...counts.values()].sort((a, b) => a[0].localeCompare(b[0]));
}
