// Validation on PostgreSQL. Most validations bind nothing: the IP and HWID are bound
// already (the common case), or a check fails. Those are decided from one lock-free
// read, and their attempts are inserted together with those of the other requests
// waiting at that moment (group commit: one statement and one commit for all, each
// answered after it), so validations of one busy license do not queue behind each
// other's commits. Only a validation that may bind a new IP or HWID takes the license's
// row lock (SELECT … FOR NO KEY UPDATE) and decides again under it, so concurrent
// validations of one license, from this instance or any other, never exceed its limits;
// from one instance they take it one at a time, the others waiting in memory rather than
// each on a pooled connection.
// A lock-free decision is that of the moment of its read: an admin change committed
// between the read and the insert does not change it. A successful validation refreshes
// the last-seen time of its bound IP and HWID at most once a second (LAST_SEEN_RESOLUTION_MS),
// beside its attempt; one that frees idle bindings does so under the lock (validateLocked).
// The commonest case, a license + IP + HWID this instance saw bound and valid, skips the read:
// it is decided from what was seen and recorded by a statement that checks those facts
// still hold (validation.bound-facts.ts); when they do not, the request takes the path above.
import type { Db } from '../../db/database.js';
import type { NewValidationAttempt } from '../../db/schema.js';
import { GroupCommit, type Pending } from '../../lib/group-commit.js';
import { KeyedSerial } from '../../lib/keyed-serial.js';
import { reportSlotRelease, reportValidation } from '../../lib/observe.js';
import { auditEventWrite, auditRow, auditWrites } from '../audit/audit.service.js';
import type { OutboundEvent } from '../events/events.js';
import { enqueue, enqueueManyPostgres } from '../events/outbox.repository.js';
import type { EventGate } from '../events/subscriptions.js';
import { SLOT_BIND_EVENT_TYPE, slotBindEvent, validationEvent, validationEventType } from './validation-events.js';
import { BoundFactsCache, boundKey } from './validation.bound-facts.js';
import { getLicenseWithoutHistory } from '../licenses/licenses.service.js';
import { EXPIRY_START_ACTOR, expiryStartAudit } from '../licenses/expiry-clock.js';
import { decideValidation, shortfall, writesNothing, type Decision } from './validation.decision.js';
import { outcomeOf, startedExpiry, validationFacts, type LicenseLimits } from './validation.facts.js';
import { PruneSchedule, PruneThrottle } from './validation.history.js';
import * as repo from './validation.repository.js';
import {
  ATTEMPTS_PER_INSERT,
  attemptRow,
  idleBefore,
  inactiveReleaseAudit,
  isStale,
  mustLookForIdle,
  newCommitGroup,
  unknownLicense,
  type CommitGroup,
  type SlotKind,
  type SlotSeen,
  type ValidationRequest,
  type ValidationResult,
  type Validator,
} from './validation.types.js';
import { clock } from '../../lib/clock.js';

const attemptOf = (req: ValidationRequest, now: number, decision: Decision): NewValidationAttempt => {
  reportValidation(decision.reason, decision.valid);
  return attemptRow(req, now, decision);
};

/** An attempt to record, with the validation event some endpoint wants (if any). */
interface AttemptToRecord {
  attempt: NewValidationAttempt;
  event: OutboundEvent | null;
}

/**
 * The attempts in one statement, those of licenses deleted meanwhile left out (with their
 * events); the events of the others in the same transaction. Answers the licenses recorded.
 */
async function insertAttemptsWithEvents(db: Db, items: readonly AttemptToRecord[]): Promise<Set<string>> {
  const attempts = items.map((i) => i.attempt);
  if (!items.some((i) => i.event)) return repo.insertAttemptsOfLiveLicenses(db, attempts);
  return db.transaction().execute(async (trx) => {
    const live = await repo.insertAttemptsOfLiveLicenses(trx, attempts);
    const events = items.flatMap((i) => (i.event && live.has(i.attempt.license_id) ? [i.event] : []));
    if (events.length > 0) await enqueueManyPostgres(trx, events);
    return live;
  });
}

/**
 * Inserts a batch of attempts in one statement; each learns the commit it was recorded in, or
 * null when its license was deleted meanwhile (nothing recorded).
 */
async function insertBatch(db: Db, batch: Pending<AttemptToRecord, CommitGroup | null>[]): Promise<void> {
  const live = await insertAttemptsWithEvents(db, batch.map((p) => p.item));
  const committedWith = newCommitGroup();
  for (const p of batch) p.resolve(live.has(p.item.attempt.license_id) ? committedWith : null);
}

/** A guarded attempt that was recorded, and the group commit it was recorded in. */
type GuardedCommitted = repo.GuardedRecorded & { committedWith: CommitGroup };

/** Records the batch's attempts that still hold; each learns whether it was recorded (with its product's live settings) or not (null). */
async function recordIfStillBound(db: Db, batch: Pending<repo.GuardedAttempt, GuardedCommitted | null>[]): Promise<void> {
  // A license deleted meanwhile fails the check like any change: its requests take the full path.
  const rows = await repo.insertAttemptsIfStillBound(db, batch.map((p) => p.item));
  const committedWith = newCommitGroup(); // the one statement committed them all
  // Keyed with the version too: an attempt decided from an older row of the same key was not recorded.
  const recorded = new Map(rows.map((r) => [`${boundKey({ licenseId: r.license_id, ip: r.ip, hwid: r.hwid })}\u0000${r.version}`, { ...r, committedWith }]));
  for (const p of batch) p.resolve(recorded.get(`${boundKey(p.item)}\u0000${p.item.version}`) ?? null);
}

/** A decision made without the lock, its answer, and the bound values whose last-seen time it must refresh. */
interface LockFreeDecision {
  decision: Decision;
  result: ValidationResult;
  touch: { kind: SlotKind; value: string }[];
}

/** One kind of slot under the row lock, with the idle bindings that may make room. */
async function lookLocked(trx: Db, kind: SlotKind, req: ValidationRequest, license: LicenseLimits, now: number) {
  const limit = kind === 'ip' ? license.max_ips : license.max_hwids;
  const look = await repo.lookAtSlot(trx, kind, req.licenseId, req[kind], idleBefore(license, now));
  const bound = look.lastSeen !== undefined;
  const candidates = mustLookForIdle(license, bound, look.used, limit) ? look.idle.slice(0, shortfall({ bound, used: look.used, limit })) : [];
  return { bound, used: look.used, next: look.next, lastSeen: look.lastSeen, idle: candidates.length, candidates };
}

export function createPostgresValidator(db: Db, historyMax: number, events: EventGate): Validator {
  const pruneDue = new PruneSchedule(historyMax);
  // The lock-free reads of validations that arrive together go in one statement: one round
  // trip and one snapshot for all, as their attempts share one insert.
  const reads = new GroupCommit<repo.BindingQuery, repo.LicenseAndBindings | undefined>(
    async (batch) => {
      const answers = await repo.readManyLicensesAndBindings(db, batch.map((p) => p.item));
      batch.forEach((p, i) => p.resolve(answers[i]));
    },
    { maxBatch: ATTEMPTS_PER_INSERT.postgres, maxInFlight: 2, observed: false },
  );
  const attempts = new GroupCommit<AttemptToRecord, CommitGroup | null>((batch) => insertBatch(db, batch), {
    maxBatch: ATTEMPTS_PER_INSERT.postgres,
    maxInFlight: 4, // the next batches gather while one commits (each on its own pooled connection)
  });

  const boundFacts = new BoundFactsCache();
  // One batch in flight: the requests that arrive while it commits form the next one, twice
  // as large as with four in flight, and PostgreSQL spends a third less per validation
  // (docs/decisions.md, "PostgreSQL validations at half of bare"). A batch stalled behind a
  // lock delays the next for at most the statement timeout (503s, database-outage.test.ts).
  const guarded = new GroupCommit<repo.GuardedAttempt, GuardedCommitted | null>((batch) => recordIfStillBound(db, batch), {
    maxBatch: ATTEMPTS_PER_INSERT.postgres,
    maxInFlight: 1,
  });

  /**
   * Decides the request from the row this instance saw of it last, and when that decision is
   * VALID and writes nothing, records it in one round trip. null: nothing remembered, the
   * decision is another one, or the row changed (the caller takes the full path). Not while
   * validation events are wanted (their path queues them).
   */
  const recordFromBoundFacts = async (req: ValidationRequest, now: number): Promise<ValidationResult | null> => {
    const seen = boundFacts.get(req);
    if (!seen || events.wants(validationEventType(true))) return null;
    const facts = validationFacts(req, now, seen.license, { bound: true, used: seen.ipsUsed }, { bound: true, used: seen.hwidsUsed });
    const decision = decideValidation(facts);
    if (!writesNothing(decision)) return null;
    const recorded = await guarded.submit({
      licenseId: req.licenseId,
      ip: req.ip,
      hwid: req.hwid,
      version: seen.version,
      timestamp: now,
      clientVersion: req.version ?? null,
    });
    if (!recorded) {
      boundFacts.forget(req);
      return null;
    }
    const license = {
      ...seen.license,
      product_features: recorded.product_features,
      product_reveal_reasons: recorded.product_reveal_reasons,
      tier_features: recorded.tier_features,
    };
    reportValidation('VALID', true);
    const touch: Promise<unknown>[] = [];
    if (isStale(seen.ipSeen, now)) touch.push(repo.touch(db, 'ip', req.licenseId, req.ip, (seen.ipSeen = now)));
    if (isStale(seen.hwidSeen, now)) touch.push(repo.touch(db, 'hwid', req.licenseId, req.hwid, (seen.hwidSeen = now)));
    await Promise.all(touch);
    return { valid: true, decidedAtEpochMillis: now, outcome: outcomeOf(license, facts, decision, facts.expiresAtEpochMillis), committedWith: recorded.committedWith };
  };

  const validationEventOf = (req: ValidationRequest, now: number, decision: Decision) =>
    events.wants(validationEventType(decision.valid)) ? validationEvent(req, now, decision) : null;

  /** The attempt is recorded by the caller; null: the license does not exist. */
  const decideWithoutLock = async (req: ValidationRequest, now: number): Promise<LockFreeDecision | 'may bind' | null> => {
    const seen = await reads.submit({ licenseId: req.licenseId, ip: req.ip, hwid: req.hwid });
    if (!seen) return null;
    // Counts only grow without the lock, except by releases, which need a free-slot check
    // anyway: under a slot timeout any binding may be idle, so a full slot is decided
    // again under the lock (where the idle ones are counted); without one a rejection stands.
    const slot = (lastSeen: number | null, used: number): SlotSeen => ({
      bound: lastSeen !== null,
      used,
      idle: seen.slot_timeout_minutes === null ? 0 : used,
    });
    const facts = validationFacts(req, now, seen, slot(seen.ip_last_seen, seen.ips_used), slot(seen.hwid_last_seen, seen.hwids_used));
    const decision = decideValidation(facts);
    // Binding and starting a clock are writes to the license: both are decided again under its lock.
    if (decision.bindIp || decision.bindHwid || decision.startClock) return 'may bind';
    const result = { valid: decision.valid, decidedAtEpochMillis: now, outcome: outcomeOf(seen, facts, decision, facts.expiresAtEpochMillis) };
    const touch: LockFreeDecision['touch'] = [];
    if (decision.valid) {
      // In grace a bound machine passes from an address not bound: there is nothing to touch for it.
      const ipStale = seen.ip_last_seen !== null && isStale(seen.ip_last_seen, now);
      const hwidStale = isStale(seen.hwid_last_seen!, now);
      if (ipStale) touch.push({ kind: 'ip', value: req.ip });
      if (hwidStale) touch.push({ kind: 'hwid', value: req.hwid });
      if (writesNothing(decision)) boundFacts.remember(req, {
        version: seen.version,
        license: seen,
        ipsUsed: seen.ips_used,
        hwidsUsed: seen.hwids_used,
        ipSeen: ipStale ? now : seen.ip_last_seen!,
        hwidSeen: hwidStale ? now : seen.hwid_last_seen!,
      });
    }
    return { decision, result, touch };
  };

  // One locking transaction per license at a time from this instance: the others wait in
  // memory, not on the row lock with a pooled connection each.
  const lockQueue = new KeyedSerial();

  /** Decides under the license's row lock, frees idle bindings and binds as needed; returns the answer and how many it freed. */
  const validateLocked = (req: ValidationRequest) => lockQueue.run(req.licenseId, () => validateLockedNow(req));
  const validateLockedNow = (req: ValidationRequest) =>
    db.transaction().execute(async (trx) => {
      const now = clock.now();
      const license = await repo.lockLicense(trx, req.licenseId);
      if (!license) return { result: unknownLicense(now), released: 0 }; // deleted meanwhile: nothing to record
      const ip = await lookLocked(trx, 'ip', req, license, now);
      const hwid = await lookLocked(trx, 'hwid', req, license, now);
      const facts = validationFacts(req, now, license, ip, hwid);
      const decision = decideValidation(facts);
      let released = 0;
      let expiresAt = facts.expiresAtEpochMillis;
      // Under the row lock no other validation, on any instance, can be starting this clock.
      const started = decision.startClock === true && (await repo.startClock(trx, req.licenseId, (expiresAt = startedExpiry(license, now)), now));
      if (decision.valid) {
        for (const [kind, look, count, bind] of [['ip', ip, decision.releaseIps, decision.bindIp], ['hwid', hwid, decision.releaseHwids, decision.bindHwid]] as const) {
          // Under the lock the candidates are exactly what is bound: free them and audit them in one statement.
          const freed = look.candidates.slice(0, count);
          const audit = freed.map((binding) => auditRow('validation', 'licenses.slot.release', inactiveReleaseAudit(req.licenseId, kind, binding), now));
          await repo.releaseWithAudit(trx, kind, req.licenseId, freed.map((b) => b.value), audit);
          for (const entry of audit) await auditEventWrite(trx, entry, events)?.execute();
          released += freed.length;
          if (bind) {
            await repo.bind(trx, kind, req.licenseId, req[kind], look.next, now);
            if (events.wants(SLOT_BIND_EVENT_TYPE)) await enqueue(trx, slotBindEvent(req, kind, now));
          } else if (look.bound && isStale(look.lastSeen!, now)) await repo.touch(trx, kind, req.licenseId, req[kind], now);
        }
      }
      if (started) {
        const snapshot = await getLicenseWithoutHistory(trx, req.licenseId);
        for (const write of auditWrites(trx, auditRow(EXPIRY_START_ACTOR, 'licenses.expiry.start', expiryStartAudit(snapshot), now))) await write.execute();
      }
      await repo.insertAttempts(trx, [attemptOf(req, now, decision)]); // under the row lock: the license stays until the commit
      const event = validationEventOf(req, now, decision);
      if (event) await enqueue(trx, event);
      return { result: { valid: decision.valid, decidedAtEpochMillis: now, outcome: outcomeOf(license, facts, decision, expiresAt) }, released };
    });

  const validate = async (req: ValidationRequest): Promise<ValidationResult> => {
    const now = clock.now();
    const fast = await recordFromBoundFacts(req, now);
    if (fast) {
      if (pruneDue.due(req.licenseId)) pruning.request(req.licenseId);
      return fast;
    }
    const decided = await decideWithoutLock(req, now);
    if (decided === null) {
      reportValidation('UNKNOWN_LICENSE', false);
      return unknownLicense(now); // nothing to record
    }
    let result: ValidationResult;
    if (decided === 'may bind') {
      const locked = await validateLocked(req);
      reportSlotRelease('inactive', locked.released);
      // Its own transaction, committed (a license deleted meanwhile recorded nothing).
      result = locked.result.outcome ? { ...locked.result, committedWith: newCommitGroup() } : locked.result;
    } else {
      const { decision, touch } = decided;
      const [committedWith] = await Promise.all([
        attempts.submit({ attempt: attemptOf(req, now, decision), event: validationEventOf(req, now, decision) }),
        ...touch.map((t) => repo.touch(db, t.kind, req.licenseId, t.value, now)),
      ]);
      if (!committedWith) return unknownLicense(now); // the license was deleted meanwhile: nothing recorded
      result = { ...decided.result, committedWith };
    }
    if (pruneDue.due(req.licenseId)) pruning.request(req.licenseId);
    return result;
  };

  // History pruning runs beside the answers, not before them: a request that happens to
  // make a history due is not the one that waits for the DELETE (PruneThrottle: one at a time
  // per license, at most one a second).
  const pruning = new PruneThrottle((licenseId) => repo.pruneAttempts(db, licenseId, historyMax));

  return {
    validate,
    close: async () => {
      await Promise.all([guarded.drain(), reads.drain(), attempts.drain()]);
      await pruning.close();
    },
  };
}
