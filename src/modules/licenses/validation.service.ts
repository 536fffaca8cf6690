// License validation: which storage strategy runs the rule (validation.decision.ts).
import type SqliteDatabase from 'better-sqlite3';
import type { Db, Dialect } from '../../db/database.js';
import { createPostgresValidator } from './validation.postgres.js';
import { createSqliteValidator } from './validation.sqlite.js';

export interface ValidationRequest {
  licenseId: string;
  productId: string;
  hwid: string;
  /** client IP as the service sees it (client-ip.ts) */
  ip: string;
  /** Written by the validator: the time its decision used (a signed receipt repeats it). */
  decidedAtEpochMillis?: number;
}

export interface Validator {
  /**
   * Evaluates the request, binds a new IP/HWID when it passes, records the attempt and
   * resolves once all of that is committed. An unknown license is `false`, recording nothing.
   */
  validate(request: ValidationRequest): Promise<boolean>;
  /** Waits for validations in progress. */
  close(): Promise<void>;
}

export function createValidator(db: Db, dialect: Dialect, sqlite: SqliteDatabase.Database | null, historyMax: number): Validator {
  if (dialect === 'sqlite') {
    if (!sqlite) throw new Error('createValidator: the SQLite handle is required on SQLite');
    return createSqliteValidator(db, sqlite, historyMax);
  }
  return createPostgresValidator(db, historyMax);
}
