import { describe, expect, it } from 'vitest';
import { downloadsPerDay } from './download-days';

const at = (year: number, month: number, day: number, hour = 12, minute = 0) => new Date(year, month - 1, day, hour, minute).getTime();

describe('downloadsPerDay', () => {
  it('counts downloads per local day over the window, zeros included, older ones left out', () => {
    const now = at(2026, 3, 10, 9);
    const days = downloadsPerDay([at(2026, 3, 10, 0, 5), at(2026, 3, 10, 8), at(2026, 3, 8, 23, 59), at(2026, 3, 7, 23, 59), at(2026, 3, 11, 1)], 3, now);
    expect(days).toEqual([
      { day: '2026-03-08', downloads: 1 },
      { day: '2026-03-09', downloads: 0 },
      { day: '2026-03-10', downloads: 2 },
    ]);
  });
});
