// License validation: which engine runs the rule (validation.decision.ts) on this
// database. SQLite: group commit on prepared statements (validation.sqlite.ts);
// PostgreSQL: lock-free reads, row locks only to bind (validation.postgres.ts).
import type { Storage } from '../../db/storage/storage.js';
import { createPostgresValidator } from './validation.postgres.js';
import { createSqliteValidator } from './validation.sqlite.js';
import type { Validator } from './validation.types.js';
import { NO_EVENTS, type EventGate } from '../events/subscriptions.js';

/** `events` says which validation events (and slot-release events) some endpoint may want. */
export function createValidator(storage: Storage, historyMax: number, events: EventGate = NO_EVENTS): Validator {
  return storage.perEngine({
    sqlite: (handle) => createSqliteValidator(storage.db, handle, historyMax, events),
    postgres: () => createPostgresValidator(storage.db, historyMax, events),
  });
}
