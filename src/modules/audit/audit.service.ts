// The audit log: one immutable entry per mutation, written inside the mutation's
// transaction so that neither exists without the other.
import type { Db } from '../../db/database.js';
import { newId } from '../../lib/ids.js';
import type { AuditEntriesTable } from '../../db/schema.js';
import type { AuditEntry } from './audit.schemas.js';
import { countAuditEntries, insertAuditEntry, listAuditEntries, listAuditEventNames, type AuditFilter } from './audit.repository.js';

export type { AuditEntry } from './audit.schemas.js';

/**
 * Records one audit entry. `data` must be a public snapshot (never a secret or hash);
 * it is stored as a JSON string.
 */
export async function recordAudit(trx: Db, performedBy: string, name: string, data: unknown): Promise<void> {
  await insertAuditEntry(trx, auditRow(performedBy, name, data));
}

/** The row of one audit entry (for a writer that cannot await: SQLite's validation batch). */
export const auditRow = (performedBy: string, name: string, data: unknown, timestamp = Date.now()): AuditEntriesTable => ({
  id: newId(),
  name,
  performed_by: performedBy,
  timestamp,
  data: JSON.stringify(data),
});

/** One page of entries, newest first, and how many entries match the filter in all. */
export async function listAudit(
  db: Db,
  opts: AuditFilter & { limit: number; offset?: number },
): Promise<{ records: AuditEntry[]; total: number }> {
  const [rows, total] = await Promise.all([listAuditEntries(db, opts), countAuditEntries(db, opts)]);
  const records = rows.map((r) => ({
    id: r.id,
    name: r.name,
    performedBy: r.performed_by,
    timestampEpochMillis: r.timestamp,
    data: r.data,
  }));
  return { records, total };
}

export const auditEventNames = (db: Db): Promise<string[]> => listAuditEventNames(db);
