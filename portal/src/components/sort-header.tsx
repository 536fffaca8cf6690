// A column header that sorts the list by its field (server-side); aria-sort says how it is sorted.
import type { ReactNode } from 'react';

export interface SortControl {
  sort: string;
  order: 'asc' | 'desc';
  sortBy: (field: string) => void;
}

/** Without `control` (a list shown whole elsewhere) it is a plain header. */
export function SortHeader({ field, control, children }: { field: string; control?: SortControl; children: ReactNode }) {
  if (!control) return <th scope="col">{children}</th>;
  const active = control.sort === field;
  const direction = active ? (control.order === 'asc' ? 'ascending' : 'descending') : 'none';
  return (
    <th scope="col" aria-sort={direction}>
      <button type="button" className="sort-button" onClick={() => control.sortBy(field)}>
        {children}
        <span aria-hidden="true" className="sort-mark">
          {active ? (control.order === 'asc' ? '▲' : '▼') : '↕'}
        </span>
      </button>
    </th>
  );
}
