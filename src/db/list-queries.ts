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

export type SortOrder = 'asc' | 'desc';

/** A list's order: a column (by its API field name, already checked against the allowed ones) and a direction. */
export interface Sort {
  sort?: string;
  order?: SortOrder;
}

/** Sort columns of a list, keyed by the API's field name. `createdAt` must be one of them. */
export interface SortColumns {
  /** API field name → table column */
  columns: Record<string, string>;
  /** Columns that may be null: a null sorts as the largest value on both databases. */
  nullable?: readonly string[];
}

/**
 * Orders `query` by the chosen field (default `createdAt`), then by `id` in the same
 * direction so that pages never overlap. Without `order`, ascending: the API's lists
 * were documented oldest first before `sort` existed, and paging clients rely on it. SQLite and PostgreSQL place nulls differently, so nullable
 * columns sort by "is null" first (null = largest, e.g. a license that never expires).
 */
export function withSort<Q extends { orderBy(expression: never, direction: SortOrder): Q }>(
  query: Q,
  spec: SortColumns,
  sort: Sort,
  idColumn = 'id',
): Q {
  const field = sort.sort ?? 'createdAt';
  const column = spec.columns[field] ?? spec.columns.createdAt!;
  const direction = sort.order ?? 'asc';
  const by = (expression: unknown) => (q: Q) => q.orderBy(expression as never, direction);
  let ordered = query;
  if (spec.nullable?.includes(field)) ordered = by(sql`(case when ${sql.ref(column)} is null then 1 else 0 end)`)(ordered);
  ordered = by(sql.ref(column))(ordered);
  return by(sql.ref(idColumn))(ordered);
}
