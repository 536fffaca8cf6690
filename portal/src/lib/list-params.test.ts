import { describe, expect, it } from 'vitest';
import { nextSort, readListState, writeListState } from './list-params';

const SORTABLE = ['createdAt', 'name'];

describe('list state in the address', () => {
  it('opens newest first on page 1', () => {
    expect(readListState(new URLSearchParams(''), SORTABLE)).toEqual({ page: 0, sort: 'createdAt', order: 'desc' });
    expect(writeListState({ page: 0, sort: 'createdAt', order: 'desc' })).toEqual({});
  });

  it('counts pages from 1 in the address and ignores nonsense', () => {
    expect(readListState(new URLSearchParams('page=3'), SORTABLE).page).toBe(2);
    expect(readListState(new URLSearchParams('page=0'), SORTABLE).page).toBe(0);
    expect(readListState(new URLSearchParams('page=x'), SORTABLE).page).toBe(0);
    expect(writeListState({ page: 2, sort: 'createdAt', order: 'desc' })).toEqual({ page: '3' });
  });

  it('keeps a known sort field and direction, drops unknown ones', () => {
    expect(readListState(new URLSearchParams('sort=name&order=desc'), SORTABLE)).toMatchObject({ sort: 'name', order: 'desc' });
    expect(readListState(new URLSearchParams('sort=name'), SORTABLE)).toMatchObject({ sort: 'name', order: 'asc' });
    expect(readListState(new URLSearchParams('sort=price&order=up'), SORTABLE)).toMatchObject({ sort: 'createdAt', order: 'desc' });
  });

  it('flips the direction of the current column and starts others ascending', () => {
    const state = { page: 4, sort: 'name', order: 'asc' as const };
    expect(nextSort(state, 'name')).toEqual({ sort: 'name', order: 'desc' });
    expect(nextSort(state, 'createdAt')).toEqual({ sort: 'createdAt', order: 'desc' });
    expect(nextSort({ ...state, sort: 'createdAt' }, 'name')).toEqual({ sort: 'name', order: 'asc' });
  });
});
