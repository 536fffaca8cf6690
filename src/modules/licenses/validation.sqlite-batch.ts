// The SQLite batch itself: every request of a batch applied in one IMMEDIATE
// transaction, one after another in arrival order, histories pruned when due
// (scheduling and answering are validation.sqlite.ts's job).
import type SqliteDatabase from 'better-sqlite3';
import type { Db } from '../../db/database.js';
import type { NewValidationAttempt } from '../../db/schema.js';
import { isDatabaseUnavailable } from '../../db/storage/unavailable.js';
import { reportValidation } from '../../lib/observe.js';
import { decideValidation } from './validation.decision.js';
import { PruneSchedule } from './validation.history.js';
import { prepareValidationStatements, type Kind, type ValidationStatements } from './validation.sqlite-statements.js';
import {
  attemptRow,
  validationFacts,
  type LicenseLimits,
  type SlotUsage,
  type ValidationRequest,
} from './validation.types.js';

const NOT_BOUND_YET: SlotUsage = { used: 0, next: 0 };

/** One kind of slot of one license as the batch sees it. */
class SlotView {
  private readonly bound = new Map<string, boolean>();
  private usage: SlotUsage | null = null;

  constructor(
    private readonly stmts: ValidationStatements,
    private readonly kind: Kind,
    private readonly licenseId: string,
  ) {}

  isBound(value: string): boolean {
    let bound = this.bound.get(value);
    if (bound === undefined) {
      bound = this.stmts.isBound(this.kind, this.licenseId, value);
      this.bound.set(value, bound);
    }
    return bound;
  }

  used(): SlotUsage {
    return (this.usage ??= this.stmts.usage(this.kind, this.licenseId));
  }

  bind(value: string): void {
    const usage = this.used();
    this.stmts.bind(this.kind, this.licenseId, value, usage.next);
    this.usage = { used: usage.used + 1, next: usage.next + 1 };
    this.bound.set(value, true);
  }
}

/**
 * The batch's view of one license: its row, binding checks and slot counts are read once
 * per batch and then kept up to date by the batch's own bindings (the batch holds the
 * write lock, so nobody else changes them meanwhile).
 */
interface LicenseView {
  limits: LicenseLimits;
  ip: SlotView;
  hwid: SlotView;
}

class BatchView {
  private readonly licenses = new Map<string, LicenseView | null>();

  constructor(private readonly stmts: ValidationStatements) {}

  /** null: no such license */
  license(id: string): LicenseView | null {
    let view = this.licenses.get(id);
    if (view === undefined) {
      const limits = this.stmts.license(id);
      view = limits ? { limits, ip: new SlotView(this.stmts, 'ip', id), hwid: new SlotView(this.stmts, 'hwid', id) } : null;
      this.licenses.set(id, view);
    }
    return view;
  }
}

/** Applies one validation inside the open transaction; returns its attempt, or null for an unknown license. */
function applyValidation(view: BatchView, req: ValidationRequest, now: number): NewValidationAttempt | null {
  req.decidedAtEpochMillis = now;
  const license = view.license(req.licenseId);
  if (!license) return null;
  const { limits } = license;
  const ipBound = license.ip.isBound(req.ip);
  const hwidBound = license.hwid.isBound(req.hwid);
  const ipUsage = ipBound ? NOT_BOUND_YET : license.ip.used();
  const hwidUsage = hwidBound ? NOT_BOUND_YET : license.hwid.used();
  const decision = decideValidation(
    validationFacts(req, now, limits, { bound: ipBound, used: ipUsage.used }, { bound: hwidBound, used: hwidUsage.used }),
  );
  if (decision.bindIp) license.ip.bind(req.ip);
  if (decision.bindHwid) license.hwid.bind(req.hwid);
  return attemptRow(req, now, decision);
}

/** valid/invalid per request, or the Error that request failed with. */
export type BatchOutcome = boolean | Error;

/**
 * Returns a function that applies a batch and commits it. If the batch fails, nothing of
 * it is committed and each request is retried alone, so one failing request cannot fail
 * the others; unless the database itself is unavailable, which fails them all.
 */
export function createBatchProcessor(db: Db, sqlite: SqliteDatabase.Database, historyMax: number) {
  const stmts = prepareValidationStatements(db, sqlite);
  const pruning = new PruneSchedule(historyMax);

  /** The last batch's reasons (null: unknown license), reported only once it has committed. */
  let reasons: (string | null)[] = [];
  const commit = (requests: ValidationRequest[]): boolean[] => {
    const results = applyAll.immediate(requests);
    reasons.forEach((reason, i) => reportValidation(reason ?? 'UNKNOWN_LICENSE', results[i]!));
    return results;
  };

  const applyAll = sqlite.transaction((requests: ValidationRequest[]): boolean[] => {
    const view = new BatchView(stmts);
    const now = Date.now(); // the batch is one moment: it commits as one
    const attempts: NewValidationAttempt[] = [];
    const recorded = new Map<string, number>();
    reasons = [];
    const results = requests.map((req) => {
      const attempt = applyValidation(view, req, now);
      reasons.push(attempt?.reason ?? null);
      if (!attempt) return false;
      attempts.push(attempt);
      recorded.set(req.licenseId, (recorded.get(req.licenseId) ?? 0) + 1);
      return attempt.successful === 1;
    });
    stmts.recordAttempts(attempts);
    for (const [licenseId, added] of recorded) if (pruning.due(licenseId, added)) stmts.prune(licenseId, historyMax);
    return results;
  });

  return (requests: ValidationRequest[]): BatchOutcome[] => {
    try {
      return commit(requests);
    } catch (batchError) {
      // A locked, full or read-only file fails every request alike: retrying each alone
      // would only hold the event loop for a busy timeout per request. All answer 503.
      if (isDatabaseUnavailable(batchError)) return requests.map(() => batchError as Error);
      return requests.map((req) => {
        try {
          return commit([req])[0]!;
        } catch (err) {
          return err instanceof Error ? err : new Error(String(err));
        }
      });
    }
  };
}
