// Small query pieces the record lists share: paging and a portable substring search.
import { sql, type RawBuilder, type SqlBool } from 'kysely';

export interface Page {
  /** undefined: every row */
  limit?: number;
  offset?: number;
  /** Only rows after this one in list order (created_at, id): a streamed list's next batch. */
  after?: ListKey;
}

/** Where a row stands in the lists' order, oldest first: its created_at, then its id. */
export interface ListKey {
  createdAt: number;
  id: string;
}

/**
 * Rows after `after` in (created_at, id) order, for keyset batches: each batch starts on
 * the (created_at, id) index where the last one ended, whatever the list's length.
 * A row-value comparison, which SQLite and PostgreSQL both read as an index range.
 */
export function afterKey<Q extends { where(condition: RawBuilder<SqlBool>): Q }>(query: Q, table: string, after: ListKey | undefined): Q {
  if (after === undefined) return query;
  return query.where(sql<SqlBool>`(${sql.ref(`${table}.created_at`)}, ${sql.ref(`${table}.id`)}) > (${after.createdAt}, ${after.id})`);
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

/**
 * Reads a whole list in keyset batches of STREAM_BATCH_SIZE, oldest first, handing each
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
