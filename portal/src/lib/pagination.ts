// Paging over list endpoints that take limit/offset but report no total: ask for one
// row more than the page shows; its presence means there is a next page.

export function pageQuery(page: number, pageSize: number): { limit: number; offset: number } {
  return { limit: pageSize + 1, offset: page * pageSize };
}

export function pageSlice<T>(rows: T[], pageSize: number): { rows: T[]; hasNext: boolean } {
  return { rows: rows.slice(0, pageSize), hasNext: rows.length > pageSize };
}
