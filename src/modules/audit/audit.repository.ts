import type { Db } from '../../db/database.js';
import { containsPattern } from '../../db/list-queries.js';
import type { AuditEntriesTable } from '../../db/schema.js';
import { sql, type SqlBool } from 'kysely';

/** The INSERT of one entry, as a query (SQLite's validation batch compiles it and runs it synchronously). */
export const auditInsertQuery = (db: Db, entry: AuditEntriesTable) => db.insertInto('audit_entries').values(entry);

export interface AuditFilter {
  /** Only these event names (any of them). */
  names?: readonly string[];
  /** Only event names starting with this text, e.g. `licenses.` */
  namePrefix?: string;
  /** Only entries by this actor (exact username). */
  actor?: string;
  /** Only entries at or after this time (epoch millis). */
  since?: number;
  /** Only entries before this time (epoch millis). */
  until?: number;
}

/** `text%` with LIKE's wildcards taken literally (prefix match is case-sensitive: event names are lower case). */
const prefixPattern = (text: string) => containsPattern(text).slice(1);

/** The entries the filter matches, before paging: the page and its count share it. */
function matchingEntries(db: Db, filter: AuditFilter) {
  let query = db.selectFrom('audit_entries');
  if (filter.names !== undefined) query = query.where('name', 'in', filter.names);
  if (filter.namePrefix !== undefined) {
    query = query.where(sql<SqlBool>`${sql.ref('name')} like ${prefixPattern(filter.namePrefix)} escape '\\'`);
  }
  if (filter.actor !== undefined) query = query.where('performed_by', '=', filter.actor);
  if (filter.since !== undefined) query = query.where('timestamp', '>=', filter.since);
  if (filter.until !== undefined) query = query.where('timestamp', '<', filter.until);
  return query;
}

export function listAuditEntries(
  db: Db,
  filter: AuditFilter & { limit: number; offset?: number },
): Promise<AuditEntriesTable[]> {
  const query = matchingEntries(db, filter).selectAll().orderBy('timestamp', 'desc').orderBy('id', 'desc').limit(filter.limit);
  return (filter.offset ? query.offset(filter.offset) : query).execute();
}

export async function countAuditEntries(db: Db, filter: AuditFilter): Promise<number> {
  const row = await matchingEntries(db, filter).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  return row.n;
}

/** The event names recorded so far, for a filter's choice list. */
export async function listAuditEventNames(db: Db): Promise<string[]> {
  const rows = await db.selectFrom('audit_entries').select('name').distinct().orderBy('name').execute();
  return rows.map((r) => r.name);
}
