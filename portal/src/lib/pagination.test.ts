import { describe, expect, it } from 'vitest';
import { pageCount, pageQuery, pageRange } from './pagination';

describe('paging with the total from X-Total-Count', () => {
  it('asks for one page at its offset', () => {
    expect(pageQuery(0, 20)).toEqual({ limit: 20, offset: 0 });
    expect(pageQuery(3, 20)).toEqual({ limit: 20, offset: 60 });
  });

  it('counts pages, at least one', () => {
    expect(pageCount(0, 20)).toBe(1);
    expect(pageCount(1, 20)).toBe(1);
    expect(pageCount(20, 20)).toBe(1);
    expect(pageCount(21, 20)).toBe(2);
    expect(pageCount(95, 20)).toBe(5);
  });

  it('says which records a page shows', () => {
    expect(pageRange(0, 20, 20, 95)).toBe('1–20 of 95');
    expect(pageRange(4, 20, 15, 95)).toBe('81–95 of 95');
    expect(pageRange(1, 20, 1, 21)).toBe('21 of 21');
    expect(pageRange(0, 20, 0, 0)).toBe('0 of 0');
    // A page past the end (records deleted meanwhile) shows none.
    expect(pageRange(9, 20, 0, 95)).toBe('0 of 95');
  });
});
