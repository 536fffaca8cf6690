// A list page's state in the address: page (counted from 1, as people count), sort field
// and direction. Lists open newest first; the API's own default (oldest first) is never used.

export type SortOrder = 'asc' | 'desc';

export interface ListState {
  /** 0-based, for offsets. */
  page: number;
  sort: string;
  order: SortOrder;
}

export const DEFAULT_SORT = 'createdAt';

/** Page, sort and order from the address; unknown sort fields fall back to createdAt. */
export function readListState(params: URLSearchParams, sortable: readonly string[]): ListState {
  const pageNumber = Number(params.get('page'));
  const sort = params.get('sort') ?? DEFAULT_SORT;
  const order = params.get('order');
  return {
    page: Number.isInteger(pageNumber) && pageNumber >= 1 ? pageNumber - 1 : 0,
    sort: sortable.includes(sort) ? sort : DEFAULT_SORT,
    order: order === 'asc' || order === 'desc' ? order : sort === DEFAULT_SORT || !sortable.includes(sort) ? 'desc' : 'asc',
  };
}

/** The address parameters of a list state; defaults are left out to keep links short. */
export function writeListState(state: ListState): Record<string, string> {
  const out: Record<string, string> = {};
  if (state.page > 0) out.page = String(state.page + 1);
  if (state.sort !== DEFAULT_SORT || state.order !== 'desc') {
    out.sort = state.sort;
    out.order = state.order;
  }
  return out;
}

/** Clicking a column: the same column flips direction; a new one starts ascending (time columns newest first). */
export function nextSort(state: ListState, field: string): Pick<ListState, 'sort' | 'order'> {
  if (state.sort === field) return { sort: field, order: state.order === 'asc' ? 'desc' : 'asc' };
  return { sort: field, order: /At$/.test(field) ? 'desc' : 'asc' };
}
