// License validation: which engine runs the rule (validation.decision.ts) on this
// database. SQLite: group commit on prepared statements (validation.sqlite.ts);
// PostgreSQL: lock-free reads, row locks only to bind (validation.postgres.ts).
import type { Storage } from '../../db/storage/storage.js';
import { createPostgresValidator } from './validation.postgres.js';
import { createSqliteValidator } from './validation.sqlite.js';
import type { Validator } from './validation.types.js';

export function createValidator(storage: Storage, historyMax: number): Validator {
  return storage.perEngine({
    sqlite: (handle) => createSqliteValidator(storage.db, handle, historyMax),
    postgres: () => createPostgresValidator(storage.db, historyMax),
  });
}
