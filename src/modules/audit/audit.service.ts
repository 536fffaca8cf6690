// The audit log: one immutable entry per mutation, written inside the mutation's
// transaction so that neither exists without the other. Audit entries and outbound
// events are the same facts: writing an entry also queues its event for every endpoint
// subscribed to it, in the same transaction (auditWrites is the one place that does both).
import type { Db } from '../../db/database.js';
import { enqueueQuery } from '../events/outbox.repository.js';
import { eventOfAudit } from '../events/events.js';
import type { EventGate } from '../events/subscriptions.js';
import { noteChange } from '../events/change-feed.js';
import { newId } from '../../lib/ids.js';
import type { AuditEntriesTable } from '../../db/schema.js';
import type { CompiledQuery } from 'kysely';
import type { AuditEntry } from './audit.schemas.js';
import { redactAuditData, type AuditReader } from './audit.redaction.js';
import { auditInsertQuery, countAuditEntries, listAuditEntries, listAuditEventNames, type AuditFilter } from './audit.repository.js';
import { clock } from '../../lib/clock.js';

export type { AuditEntry } from './audit.schemas.js';

/**
 * Records one audit entry. `data` must be a public snapshot (never a secret or hash);
 * it is stored as a JSON string.
 */
export async function recordAudit(trx: Db, performedBy: string, name: string, data: unknown): Promise<void> {
  for (const write of auditWrites(trx, auditRow(performedBy, name, data))) await write.execute();
  noteChange(trx, name, data);
}

/**
 * The writes of one entry, to run in the change's transaction: the entry, and the query
 * that queues its event for the endpoints subscribed at that moment. A hot path (a
 * validation releasing slots) passes its `gate` to leave that query out when this
 * instance knows of no endpoint that wants the event.
 */
export function auditWrites(db: Db, entry: AuditEntriesTable, gate?: EventGate): Write[] {
  const event = auditEventWrite(db, entry, gate);
  return event ? [auditInsertQuery(db, entry), event] : [auditInsertQuery(db, entry)];
}

type Write = { execute(): Promise<unknown>; compile(): CompiledQuery };

/** The event half of auditWrites, for a writer that inserts the entries itself (PostgreSQL's release statement). */
export const auditEventWrite = (db: Db, entry: AuditEntriesTable, gate?: EventGate): Write | null =>
  !gate || gate.wants(entry.name) ? enqueueQuery(db, eventOfAudit(entry)) : null;

/** The row of one audit entry (for a writer that cannot await: SQLite's validation batch). */
export const auditRow = (performedBy: string, name: string, data: unknown, timestamp = clock.now()): AuditEntriesTable => ({
  id: newId(),
  name,
  performed_by: performedBy,
  timestamp,
  data: JSON.stringify(data),
});

/** One page of entries, newest first, as `reader` may see them, and how many entries match the filter in all. */
export async function listAudit(
  db: Db,
  opts: AuditFilter & { limit: number; offset?: number },
  reader: AuditReader,
): Promise<{ records: AuditEntry[]; total: number }> {
  const [rows, total] = await Promise.all([listAuditEntries(db, opts), countAuditEntries(db, opts)]);
  const records = rows.map((r) => ({
    id: r.id,
    name: r.name,
    performedBy: r.performed_by,
    timestampEpochMillis: r.timestamp,
    data: redactAuditData(r.name, r.data, reader),
  }));
  return { records, total };
}

export const auditEventNames = (db: Db): Promise<string[]> => listAuditEventNames(db);
