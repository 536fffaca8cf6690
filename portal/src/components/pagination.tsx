// Previous/next paging with the list's total: "21–40 of 95 · Page 2 of 5".
import { pageCount, pageRange } from '../lib/pagination';

export function Pagination({
  page,
  pageSize,
  shown,
  total,
  onPage,
}: {
  page: number;
  pageSize: number;
  /** Records on this page. */
  shown: number;
  /** Records matching the filters in all. */
  total: number;
  onPage: (page: number) => void;
}) {
  const pages = pageCount(total, pageSize);
  return (
    <nav className="pagination" aria-label="Pagination">
      <span data-testid="page-range">{pageRange(page, pageSize, shown, total)}</span>
      {pages > 1 || page > 0 ? (
        <>
          <button type="button" className="button" disabled={page === 0} onClick={() => onPage(Math.min(page - 1, pages - 1))}>
            ← Previous
          </button>
          <span aria-live="polite">
            Page {page + 1} of {pages}
          </span>
          <button type="button" className="button" disabled={page + 1 >= pages} onClick={() => onPage(page + 1)}>
            Next →
          </button>
        </>
      ) : null}
    </nav>
  );
}
