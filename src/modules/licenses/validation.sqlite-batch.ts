// The SQLite batch itself: every request of a batch applied in one IMMEDIATE
// transaction, one after another in arrival order, histories pruned when due
// (scheduling and answering are validation.sqlite.ts's job).
import type SqliteDatabase from 'better-sqlite3';
import { decideValidation } from './validation.decision.js';
import { PruneSchedule } from './validation.history.js';
import {
  prepareValidationStatements,
  type Kind,
  type LicenseLimits,
  type SlotUsage,
  type ValidationStatements,
} from './validation.sqlite-statements.js';
import type { ValidationRequest } from './validation.service.js';

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
    licenseId: req.licenseId,
    hwid: req.hwid,
    ip: req.ip,
    timestamp: now,
    successful: decision.valid ? 1 : 0,
    reason: decision.reason,
  });
  return decision.valid;
}

/** valid/invalid per request, or the Error that request failed with. */
export type BatchOutcome = boolean | Error;

/**
 * Returns a function that applies a batch and commits it. If the batch fails, nothing of
 * it is committed and each request is retried alone, so one failing request cannot fail
 * the others.
 */
export function createBatchProcessor(sqlite: SqliteDatabase.Database, historyMax: number) {
  const stmts = prepareValidationStatements(sqlite);
  const pruning = new PruneSchedule(historyMax);

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

  return (requests: ValidationRequest[]): BatchOutcome[] => {
    try {
      return applyAll.immediate(requests);
    } catch {
      return requests.map((req) => {
        try {
          return applyAll.immediate([req])[0]!;
        } catch (err) {
          return err instanceof Error ? err : new Error(String(err));
        }
      });
    }
  };
}
