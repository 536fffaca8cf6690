// Small query pieces the record lists share: paging and a portable substring search.
import { sql, type RawBuilder, type SqlBool } from 'kysely';

export interface Page {
  /** undefined: every row */
  limit?: number;
  offset?: number;
}

/**
 * Applies limit/offset. SQLite accepts OFFSET only after a LIMIT, so an offset without
 * a limit gets the largest safe limit, which both databases accept.
 */
export function withPage<Q extends { limit(n: number): Q; offset(n: number): Q }>(query: Q, page: Page): Q {
  if (page.limit === undefined && !page.offset) return query;
  const limited = query.limit(page.limit ?? Number.MAX_SAFE_INTEGER);
  return page.offset ? limited.offset(page.offset) : limited;
}

/** Whether a page was asked for: then the total of matching rows needs a COUNT of its own. */
export const isPaged = (page: Page): boolean => page.limit !== undefined || page.offset !== undefined;

/** `%text%` with LIKE's wildcards (and the escape character) taken literally. */
export const containsPattern = (text: string): string => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/**
 * `column` contains `text`, ignoring case, on SQLite and PostgreSQL alike (an explicit
 * ESCAPE, since SQLite has no default escape character).
 */
export const containsIgnoringCase = (column: string, text: string): RawBuilder<SqlBool> =>
  sql<SqlBool>`lower(${sql.ref(column)}) like lower(${containsPattern(text)}) escape '\\'`;
