// Previous/next paging for list endpoints that return no total: the page asks for one
// row more than it shows, and that extra row says whether a next page exists.
export function Pagination({
  page,
  hasNext,
  onPage,
}: {
  page: number;
  hasNext: boolean;
  onPage: (page: number) => void;
}) {
  if (page === 0 && !hasNext) return null;
  return (
    <nav className="pagination" aria-label="Pagination">
      <button type="button" className="button" disabled={page === 0} onClick={() => onPage(page - 1)}>
        ← Previous
      </button>
      <span aria-live="polite">Page {page + 1}</span>
      <button type="button" className="button" disabled={!hasNext} onClick={() => onPage(page + 1)}>
        Next →
      </button>
    </nav>
  );
}
