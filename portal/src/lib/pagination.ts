// Paging over list endpoints: limit/offset for a page, and what the API's total
// (X-Total-Count) says about the pages.

export function pageQuery(page: number, pageSize: number): { limit: number; offset: number } {
  return { limit: pageSize, offset: page * pageSize };
}

/** At least one page, so an empty list still reads "page 1 of 1". */
export function pageCount(total: number, pageSize: number): number {
  return Math.max(1, Math.ceil(total / pageSize));
}

/** "21–40 of 95": which records the page shows ("95 of 95" for one, "0 of 0" for none). */
export function pageRange(page: number, pageSize: number, shown: number, total: number): string {
  if (shown === 0) return `0 of ${total}`;
  const first = page * pageSize + 1;
  return shown === 1 ? `${first} of ${total}` : `${first}–${first + shown - 1} of ${total}`;
}
