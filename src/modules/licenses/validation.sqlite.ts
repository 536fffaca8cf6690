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
import { PruneSchedule } from './validation.history.js';
import {
  prepareValidationStatements,
  type Kind,
  type LicenseLimits,
  type SlotUsage,
  type ValidationStatements,
} from './validation.sqlite-statements.js';
import type { ValidationRequest, Validator } from './validation.service.js';

const NOT_BOUND_YET: SlotUsage = { used: 0, next: 0 };

/**
 * The batch's view of the licenses it touches: each license row, binding check and slot
 * count is read once per batch and then kept up to date by the batch's own bindings
 * (the batch holds the write lock, so nobody else changes them meanwhile).
 */
class BatchView {
  private readonly licenses = new Map<string, LicenseLimits | undefined>();
  private readonly bound = new Map<string, boolean>();
  private readonly usages = new Map<string, SlotUsage>();

  constructor(private readonly stmts: ValidationStatements) {}

  license(id: string): LicenseLimits | undefined {
    if (!this.licenses.has(id)) this.licenses.set(id, this.stmts.license(id));
    return this.licenses.get(id);
  }

  isBound(kind: Kind, licenseId: string, value: string): boolean {
    const key = `${kind}\u0000${licenseId}\u0000${value}`;
    let bound = this.bound.get(key);
    if (bound === undefined) {
      bound = this.stmts.isBound(kind, licenseId, value);
      this.bound.set(key, bound);
    }
    return bound;
  }

  usage(kind: Kind, licenseId: string): SlotUsage {
    const key = `${kind}\u0000${licenseId}`;
    let usage = this.usages.get(key);
    if (usage === undefined) {
      usage = this.stmts.usage(kind, licenseId);
      this.usages.set(key, usage);
    }
    return usage;
  }

  bind(kind: Kind, licenseId: string, value: string): void {
    const usage = this.usage(kind, licenseId);
    this.stmts.bind(kind, licenseId, value, usage.next);
    this.usages.set(`${kind}\u0000${licenseId}`, { used: usage.used + 1, next: usage.next + 1 });
    this.bound.set(`${kind}\u0000${licenseId}\u0000${value}`, true);
  }
}

/** Applies one validation inside the open transaction; returns `valid`, or null for an unknown license. */
function applyValidation(view: BatchView, stmts: ValidationStatements, req: ValidationRequest): boolean | null {
  const license = view.license(req.licenseId);
  if (!license) return null;
  const now = Date.now();
  const ipBound = view.isBound('ip', req.licenseId, req.ip);
  const hwidBound = view.isBound('hwid', req.licenseId, req.hwid);
  const ipUsage = ipBound ? NOT_BOUND_YET : view.usage('ip', req.licenseId);
  const hwidUsage = hwidBound ? NOT_BOUND_YET : view.usage('hwid', req.licenseId);
  const decision = decideValidation({
    licenseProductId: license.product_id,
    requestedProductId: req.productId,
    expiresAtEpochMillis: license.expires_at,
    now,
    ip: { bound: ipBound, used: ipUsage.used, limit: license.max_ips },
    hwid: { bound: hwidBound, used: hwidUsage.used, limit: license.max_hwids },
  });
  if (decision.bindIp) view.bind('ip', req.licenseId, req.ip);
  if (decision.bindHwid) view.bind('hwid', req.licenseId, req.hwid);
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
  const pruning = new PruneSchedule(historyMax);

  /** Every request of the batch in one transaction, then the histories that are due pruned. */
  const applyAll = sqlite.transaction((requests: ValidationRequest[]): boolean[] => {
    const view = new BatchView(stmts);
    const recorded = new Map<string, number>();
    const results = requests.map((req) => {
      const valid = applyValidation(view, stmts, req);
      if (valid !== null) recorded.set(req.licenseId, (recorded.get(req.licenseId) ?? 0) + 1);
      return valid ?? false;
    });
    for (const [licenseId, added] of recorded) if (pruning.due(licenseId, added)) stmts.prune(licenseId, historyMax);
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
