// Validation on SQLite with group commit, on the main thread: requests that arrive
// together are applied in one IMMEDIATE transaction (validation.sqlite-batch.ts) and
// answered only after it has committed. The batch runs synchronously on the connection
// Kysely uses, taken through Kysely so that no Kysely transaction is open on it meanwhile.
import type SqliteDatabase from 'better-sqlite3';
import type { Db } from '../../db/database.js';
import { GroupCommit, type Pending } from '../../lib/group-commit.js';
import { createBatchProcessor } from './validation.sqlite-batch.js';
import type { ValidationRequest, ValidationResult, Validator } from './validation.types.js';
import type { EventGate } from '../events/subscriptions.js';

export function createSqliteValidator(db: Db, sqlite: SqliteDatabase.Database, historyMax: number, events: EventGate): Validator {
  const processBatch = createBatchProcessor(db, sqlite, historyMax, events);
  const runBatch = async (batch: Pending<ValidationRequest, ValidationResult>[]): Promise<void> => {
    const outcomes = await db.connection().execute(async () => processBatch(batch.map((p) => p.item)));
    outcomes.forEach((outcome, i) => {
      if (outcome instanceof Error) batch[i]!.reject(outcome);
      else batch[i]!.resolve(outcome);
    });
  };
  const group = new GroupCommit<ValidationRequest, ValidationResult>(runBatch);
  return { validate: (req) => group.submit(req), close: () => group.drain() };
}
