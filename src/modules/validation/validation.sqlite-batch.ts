// The SQLite batch itself: every request of a batch applied in one IMMEDIATE
// transaction, one after another in arrival order, histories pruned when due
// (scheduling and answering are validation.sqlite.ts's job).
import type SqliteDatabase from 'better-sqlite3';
import type { Db } from '../../db/database.js';
import type { NewValidationAttempt } from '../../db/schema.js';
import { isDatabaseUnavailable } from '../../db/storage/unavailable.js';
import { reportSlotRelease, reportValidation } from '../../lib/observe.js';
import { auditRow } from '../audit/audit.service.js';
import type { EventGate } from '../events/subscriptions.js';
import { SLOT_BIND_EVENT_TYPE, slotBindEvent, validationEvent, validationEventType } from './validation-events.js';
import { decideValidation, shortfall } from './validation.decision.js';
import { PruneSchedule, PruneThrottle } from './validation.history.js';
import { EXPIRY_START_ACTOR, expiryStartAudit } from '../licenses/expiry-clock.js';
import { prepareValidationStatements, type Kind, type ValidationStatements } from './validation.sqlite-statements.js';
import { outcomeOf, startedExpiry, validationFacts, type LicenseLimits } from './validation.facts.js';
import {
  attemptRow,
  idleBefore,
  inactiveReleaseAudit,
  isStale,
  mustLookForIdle,
  newCommitGroup,
  unknownLicense,
  type IdleBinding,
  type SlotSeen,
  type SlotUsage,
  type ValidationRequest,
  type ValidationResult,
} from './validation.types.js';
import { clock } from '../../lib/clock.js';

/** What one request saw of one kind of slot, with the idle bindings that may make room. */
interface SlotLook extends SlotSeen {
  candidates: IdleBinding[];
}

/** One kind of slot of one license as the batch sees it. */
class SlotView {
  /** value -> when last seen; null: not bound */
  private readonly seen = new Map<string, number | null>();
  private usage: SlotUsage | null = null;

  constructor(
    private readonly stmts: ValidationStatements,
    private readonly kind: Kind,
    private readonly licenseId: string,
  ) {}

  private lastSeen(value: string): number | null {
    let at = this.seen.get(value);
    if (at === undefined) {
      at = this.stmts.lastSeen(this.kind, this.licenseId, value) ?? null;
      this.seen.set(value, at);
    }
    return at;
  }

  private used(): SlotUsage {
    return (this.usage ??= this.stmts.usage(this.kind, this.licenseId));
  }

  /** The request's view: bound or not, how many are, and (only when full under a timeout) the idle ones. */
  look(value: string, limit: number | null, license: LicenseLimits, now: number): SlotLook {
    if (this.lastSeen(value) !== null) return { bound: true, used: 0, candidates: [] };
    const { used } = this.used();
    const candidates = mustLookForIdle(license, false, used, limit)
      ? this.stmts.idle(this.kind, this.licenseId, idleBefore(license, now)!, shortfall({ bound: false, used, limit }))
      : [];
    return { bound: false, used, idle: candidates.length, candidates };
  }

  bind(value: string, now: number): void {
    const usage = this.used();
    this.stmts.bind(this.kind, this.licenseId, value, usage.next, now);
    this.usage = { used: usage.used + 1, next: usage.next + 1 };
    this.seen.set(value, now);
  }

  /** Records that a successful validation presented the bound value (at most once a second). */
  touch(value: string, now: number): void {
    const at = this.lastSeen(value);
    if (at === null || !isStale(at, now)) return;
    this.stmts.touch(this.kind, this.licenseId, value, now);
    this.seen.set(value, now);
  }

  release(binding: IdleBinding): void {
    this.stmts.unbind(this.kind, this.licenseId, binding.value);
    const usage = this.used();
    this.usage = { used: usage.used - 1, next: usage.next };
    this.seen.set(binding.value, null);
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
  /** Bindings this batch released for inactivity (reported once it commits). */
  released = 0;

  constructor(
    readonly stmts: ValidationStatements,
    readonly events: EventGate,
  ) {}

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

/** Frees the first `count` idle bindings, each with its audit entry. */
function releaseIdle(view: BatchView, slot: SlotView, kind: Kind, req: ValidationRequest, look: SlotLook, count: number, now: number): void {
  for (const binding of look.candidates.slice(0, count)) {
    slot.release(binding);
    view.stmts.audit(auditRow('validation', 'licenses.slot.release', inactiveReleaseAudit(req.licenseId, kind, binding), now), view.events);
    view.released++;
  }
}

/** One applied validation: its answer, and the attempt to record (none for an unknown license). */
interface Applied {
  result: ValidationResult;
  attempt: NewValidationAttempt | null;
}

/** Applies one validation inside the open transaction. */
function applyValidation(view: BatchView, req: ValidationRequest, now: number): Applied {
  const license = view.license(req.licenseId);
  if (!license) return { result: unknownLicense(now), attempt: null };
  const { limits } = license;
  const ip = license.ip.look(req.ip, limits.max_ips, limits, now);
  const hwid = license.hwid.look(req.hwid, limits.max_hwids, limits, now);
  const facts = validationFacts(req, now, limits, ip, hwid);
  const decision = decideValidation(facts);
  let expiresAt = facts.expiresAtEpochMillis;
  // The batch holds the write lock: the clock is started here once; later requests of the batch see it started.
  const started = decision.startClock === true && view.stmts.startClock(req.licenseId, (expiresAt = startedExpiry(limits, now)), now);
  if (started) Object.assign(limits, { expires_at: expiresAt, expiry_started_at: now });
  if (decision.valid) {
    releaseIdle(view, license.ip, 'ip', req, ip, decision.releaseIps, now);
    releaseIdle(view, license.hwid, 'hwid', req, hwid, decision.releaseHwids, now);
    for (const [kind, bind] of [['ip', decision.bindIp], ['hwid', decision.bindHwid]] as const) {
      if (!bind) {
        license[kind].touch(req[kind], now);
        continue;
      }
      license[kind].bind(req[kind], now);
      if (view.events.wants(SLOT_BIND_EVENT_TYPE)) view.stmts.event(slotBindEvent(req, kind, now));
    }
  }
  if (started) {
    const audit = expiryStartAudit(view.stmts.licenseSnapshot(req.licenseId));
    view.stmts.audit(auditRow(EXPIRY_START_ACTOR, 'licenses.expiry.start', audit, now), view.events);
  }
  if (view.events.wants(validationEventType(decision.valid))) view.stmts.event(validationEvent(req, now, decision));
  const result = { valid: decision.valid, decidedAtEpochMillis: now, outcome: outcomeOf(limits, facts, decision, expiresAt) };
  return { result, attempt: attemptRow(req, now, decision) };
}

/** The answer per request, or the Error that request failed with. */
export type BatchOutcome = ValidationResult | Error;

/**
 * Returns a function that applies a batch and commits it. If the batch fails, nothing of
 * it is committed and each request is retried alone, so one failing request cannot fail
 * the others; unless the database itself is unavailable, which fails them all.
 */
export function createBatchProcessor(db: Db, sqlite: SqliteDatabase.Database, historyMax: number, events: EventGate) {
  const stmts = prepareValidationStatements(db, sqlite);
  const pruneDue = new PruneSchedule(historyMax);
  // At most one prune per license a second (PruneThrottle): a license validated 35k times a
  // second was pruned 350 times a second, a quarter of its throughput (docs/scale.md). A prune
  // that runs at once runs in this batch's transaction; one that waits runs alone at the
  // second's end.
  const pruning = new PruneThrottle(async (licenseId) => stmts.prune(licenseId, historyMax));

  /** The last batch's reasons (null: unknown license) and releases, reported only once it has committed. */
  let reasons: (string | null)[] = [];
  let released = 0;
  const commit = (requests: ValidationRequest[]): ValidationResult[] => {
    const results = applyAll.immediate(requests);
    const committedWith = newCommitGroup(); // the batch committed as one transaction
    for (const result of results) result.committedWith = committedWith;
    reasons.forEach((reason, i) => reportValidation(reason ?? 'UNKNOWN_LICENSE', results[i]!.valid));
    reportSlotRelease('inactive', released);
    return results;
  };

  const applyAll = sqlite.transaction((requests: ValidationRequest[]): ValidationResult[] => {
    const view = new BatchView(stmts, events);
    released = 0;
    const now = clock.now(); // the batch is one moment: it commits as one
    const attempts: NewValidationAttempt[] = [];
    const recorded = new Map<string, number>();
    reasons = [];
    const results = requests.map((req) => {
      const { result, attempt } = applyValidation(view, req, now);
      reasons.push(attempt?.reason ?? null);
      if (attempt) {
        attempts.push(attempt);
        recorded.set(req.licenseId, (recorded.get(req.licenseId) ?? 0) + 1);
      }
      return result;
    });
    stmts.recordAttempts(attempts);
    for (const [licenseId, added] of recorded) if (pruneDue.due(licenseId, added)) pruning.request(licenseId);
    released = view.released;
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
