import type { Db } from '../../db/database.js';
import type { AuditEntriesTable } from '../../db/schema.js';

export function insertAuditEntry(trx: Db, entry: AuditEntriesTable): Promise<unknown> {
  return trx.insertInto('audit_entries').values(entry).execute();
}

export function listAuditEntries(db: Db, opts: { limit: number; name?: string }): Promise<AuditEntriesTable[]> {
  let query = db.selectFrom('audit_entries').selectAll();
  if (opts.name !== undefined) query = query.where('name', '=', opts.name);
  return query.orderBy('timestamp', 'desc').orderBy('id', 'desc').limit(opts.limit).execute();
}
