// A list page's address state (filters, page, sort) as one object with an updater.
import { useSearchParams } from 'react-router';
import { nextSort, readListState, writeListState, type ListState } from '../lib/list-params';

export function useListParams(sortable: readonly string[], filterNames: readonly string[]) {
  const [params, setParams] = useSearchParams();
  const state = readListState(params, sortable);
  const filters = Object.fromEntries(filterNames.map((name) => [name, params.get(name) ?? ''])) as Record<string, string>;

  /** Changes filters and/or list state; any filter change goes back to page 1. */
  const update = (next: { filters?: Record<string, string>; list?: Partial<ListState> }) => {
    const mergedFilters = { ...filters, ...next.filters };
    const list = { ...state, ...(next.filters ? { page: 0 } : {}), ...next.list };
    const search: Record<string, string> = {};
    for (const [key, value] of Object.entries(mergedFilters)) if (value) search[key] = value;
    setParams({ ...search, ...writeListState(list) });
  };

  return {
    ...state,
    filters,
    update,
    setPage: (page: number) => update({ list: { page } }),
    sortBy: (field: string) => update({ list: { ...nextSort(state, field), page: 0 } }),
    /** The API's sort parameters. */
    sortQuery: { sort: state.sort, order: state.order },
  };
}

export type ListParams = ReturnType<typeof useListParams>;
