// The audit log: one immutable entry per mutation, written inside the mutation's
// transaction so that neither exists without the other.
import type { Db } from '../../db/database.js';
import { newId } from '../../lib/ids.js';
import { insertAuditEntry, listAuditEntries } from './audit.repository.js';

export interface AuditEntry {
  id: string;
  name: string;
  performedBy: string;
  timestampEpochMillis: number;
  data: string;
}

/**
 * Records one audit entry. `data` must be a public snapshot (never a secret or hash);
 * it is stored as a JSON string.
 */
export async function recordAudit(trx: Db, performedBy: string, name: string, data: unknown): Promise<void> {
  await insertAuditEntry(trx, {
    id: newId(),
    name,
    performed_by: performedBy,
    timestamp: Date.now(),
    data: JSON.stringify(data),
  });
}

export async function listAudit(db: Db, opts: { limit: number; name?: string }): Promise<AuditEntry[]> {
  const rows = await listAuditEntries(db, opts);
  return rows.map((r) => ({
    id: r.id,
    name: r.name,
    performedBy: r.performed_by,
    timestampEpochMillis: r.timestamp,
    data: r.data,
  }));
}
