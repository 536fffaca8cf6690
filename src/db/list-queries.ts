// Small query pieces the record lists share: paging and a portable substring search.
import { sql, type RawBuilder, type SqlBool } from 'kysely';

export interface Page {
  /** undefined: every row */
  limit?: number;
  offset?: number;
  /** Only rows after this one in the list's order: a streamed list's next batch. */
  after?: ListKey;
}

/** Where a row stands in its list's order: the value of the sort column, then its id. */
export interface ListKey {
  value: string | number | null;
  id: string;
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

/** Records per batch of a streamed list: small enough to serialise between two validations. */
export const STREAM_BATCH_SIZE = 100;

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
  /** API field name → the API record's property holding its value, where the two differ. */
  recordFields?: Record<string, string>;
}

/**
 * Orders `query` by the chosen field (default `createdAt`), then by `id` in the same
 * direction so that pages never overlap. Without `order`, ascending: the API's lists
 * were documented oldest first before `sort` existed, and paging clients rely on it.
 * SQLite and PostgreSQL place nulls differently, so nullable
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

/**
 * Rows after `sort.after` in the order withSort gives (the sort column, then `idColumn`, in
 * the chosen direction, a null as the largest value), for keyset batches: each batch
 * starts in the index where the last one ended, whatever the list's length.
 */
export function afterKey<Q extends { where(condition: RawBuilder<SqlBool>): Q }>(
  query: Q,
  spec: SortColumns,
  sort: Sort & Pick<Page, 'after'>,
  idColumn = 'id',
): Q {
  const { after } = sort;
  if (after === undefined) return query;
  const field = sort.sort ?? 'createdAt';
  const column = sql.ref(spec.columns[field] ?? spec.columns.createdAt!);
  const id = sql.ref(idColumn);
  const beyond = sort.order === 'desc' ? sql.raw('<') : sql.raw('>');
  const rowAfter = sql<SqlBool>`(${column}, ${id}) ${beyond} (${after.value}, ${after.id})`;
  if (!spec.nullable?.includes(field)) return query.where(rowAfter);
  // Nulls come last ascending and first descending.
  const idAfter = sql<SqlBool>`${id} ${beyond} ${after.id}`;
  if (sort.order === 'desc') {
    return query.where(
      after.value === null ? sql<SqlBool>`((${column} is null and ${idAfter}) or ${column} is not null)` : sql<SqlBool>`(${column} is not null and ${rowAfter})`,
    );
  }
  return query.where(
    after.value === null ? sql<SqlBool>`(${column} is null and ${idAfter})` : sql<SqlBool>`((${column} is not null and ${rowAfter}) or ${column} is null)`,
  );
}

/** A record's ListKey in the order `sort` asks for (the value of its sort field, then its id). */
export function listKeyOf(spec: SortColumns, sort: Sort): (record: { id: string }) => ListKey {
  const field = sort.sort ?? 'createdAt';
  const property = spec.recordFields?.[field] ?? field;
  return (record) => ({ value: (record as unknown as Record<string, string | number | null>)[property] ?? null, id: record.id });
}

/**
 * Reads a whole list in keyset batches of STREAM_BATCH_SIZE, in the list's order, handing each
 * batch to `handle` before the next is read. `read` gets the page to apply (a limit and
 * the key of the last record handled); `keyOf` gives a record's place in the order.
 */
export async function forEachBatch<T>(
  read: (page: Page) => Promise<T[]>,
  keyOf: (record: T) => ListKey,
  handle: (records: T[]) => Promise<void>,
): Promise<void> {
  let after: ListKey | undefined;
  for (;;) {
    const records = await read({ limit: STREAM_BATCH_SIZE, after });
    if (records.length > 0) await handle(records);
    if (records.length < STREAM_BATCH_SIZE) return;
    after = keyOf(records[records.length - 1]!);
  }
}
