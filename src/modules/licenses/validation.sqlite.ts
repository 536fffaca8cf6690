// Validation on SQLite with group commit. Requests that arrive together are processed
// in one IMMEDIATE write transaction (SQLite's write lock, held across processes),
// one after another in arrival order, and answered only after that transaction has
// committed. The whole batch runs synchronously on the connection Kysely uses, taken
// through Kysely so that no Kysely transaction is open on it at the same time.
import type SqliteDatabase from 'better-sqlite3';
import type { Db } from '../../db/database.js';
import { GroupCommit, type Pending } from '../../lib/group-commit.js';
import { newId } from '../../lib/ids.js';
import { decideValidation } from './validation.decision.js';
import { prepareValidationStatements, type ValidationStatements } from './validation.sqlite-statements.js';
import type { ValidationRequest, Validator } from './validation.service.js';

const NOT_BOUND_YET = { used: 0, next: 0 };

/** Applies one validation inside the open transaction; returns `valid`, or null for an unknown license. */
function applyValidation(stmts: ValidationStatements, req: ValidationRequest): boolean | null {
  const license = stmts.license(req.licenseId);
  if (!license) return null;
  const now = Date.now();
  const ipBound = stmts.isBound('ip', req.licenseId, req.ip);
  const hwidBound = stmts.isBound('hwid', req.licenseId, req.hwid);
  const ipUsage = ipBound ? NOT_BOUND_YET : stmts.usage('ip', req.licenseId);
  const hwidUsage = hwidBound ? NOT_BOUND_YET : stmts.usage('hwid', req.licenseId);
  const decision = decideValidation({
    licenseProductId: license.product_id,
    requestedProductId: req.productId,
    expiresAtEpochMillis: license.expires_at,
    now,
    ip: { bound: ipBound, used: ipUsage.used, limit: license.max_ips },
    hwid: { bound: hwidBound, used: hwidUsage.used, limit: license.max_hwids },
  });
  if (decision.bindIp) stmts.bind('ip', req.licenseId, req.ip, ipUsage.next);
  if (decision.bindHwid) stmts.bind('hwid', req.licenseId, req.hwid, hwidUsage.next);
  stmts.recordAttempt({
    id: newId(),
    licenseId: req.licenseId,
    hwid: req.hwid,
    ip: req.ip,
    timestamp: now,
    successful: decision.valid ? 1 : 0,
    reason: decision.reason,
  });
  return decision.valid;
}

export function createSqliteValidator(db: Db, sqlite: SqliteDatabase.Database, historyMax: number): Validator {
  const stmts = prepareValidationStatements(sqlite);

  /** Every request of the batch in one transaction; history pruned once per license. */
  const applyAll = sqlite.transaction((requests: ValidationRequest[]): boolean[] => {
    const touched = new Set<string>();
    const results = requests.map((req) => {
      const valid = applyValidation(stmts, req);
      if (valid !== null) touched.add(req.licenseId);
      return valid ?? false;
    });
    if (historyMax > 0) for (const licenseId of touched) stmts.prune(licenseId, historyMax);
    return results;
  });

  const runBatch = async (batch: Pending<ValidationRequest, boolean>[]): Promise<void> => {
    const outcomes = await db.connection().execute(async () => {
      try {
        return applyAll.immediate(batch.map((p) => p.item));
      } catch {
        // Nothing of the batch was committed. Retry each request in its own transaction
        // so that one failing request cannot fail the others.
        return batch.map((p) => {
          try {
            return applyAll.immediate([p.item])[0]!;
          } catch (err) {
            return err instanceof Error ? err : new Error(String(err));
          }
        });
      }
    });
    outcomes.forEach((outcome, i) => {
      if (outcome instanceof Error) batch[i]!.reject(outcome);
      else batch[i]!.resolve(outcome);
    });
  };

  const group = new GroupCommit<ValidationRequest, boolean>(runBatch);
  return {
    validate: (req) => group.submit(req),
    close: () => group.drain(),
  };
}
