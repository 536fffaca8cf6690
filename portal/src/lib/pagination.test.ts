import { describe, expect, it } from 'vitest';
import { pageQuery, pageSlice } from './pagination';

describe('paging without a total', () => {
  it('asks for one more row than a page shows', () => {
    expect(pageQuery(0, 20)).toEqual({ limit: 21, offset: 0 });
    expect(pageQuery(3, 20)).toEqual({ limit: 21, offset: 60 });
  });

  it('shows a page and knows whether another follows', () => {
    const rows = Array.from({ length: 21 }, (_, i) => i);
    expect(pageSlice(rows, 20)).toEqual({ rows: rows.slice(0, 20), hasNext: true });
    expect(pageSlice(rows.slice(0, 20), 20).hasNext).toBe(false);
    expect(pageSlice([], 20)).toEqual({ rows: [], hasNext: false });
  });
});
