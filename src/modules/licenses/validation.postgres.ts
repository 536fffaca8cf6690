// Validation on PostgreSQL. Most validations bind nothing: the IP and HWID are bound
// already (the common case), or a check fails. Those are decided from one lock-free
// read, and their attempts are inserted together with those of the other requests
// waiting at that moment (group commit: one statement and one commit for all, each
// answered after it), so validations of one busy license do not queue behind each
// other's commits. Only a validation that may bind a new IP or HWID takes the license's
// row lock (SELECT … FOR NO KEY UPDATE) and decides again under it, so concurrent
// validations of one license, from this instance or any other, never exceed its limits.
// A lock-free decision is that of the moment of its read: an admin change committed
// between the read and the insert does not change it.
import type { Db } from '../../db/database.js';
import { isForeignKeyViolation } from '../../db/storage/errors.js';
import type { NewValidationAttempt } from '../../db/schema.js';
import { GroupCommit, type Pending } from '../../lib/group-commit.js';
import { reportValidation } from '../../lib/observe.js';
import { decideValidation, type Decision } from './validation.decision.js';
import { PruneSchedule } from './validation.history.js';
import * as repo from './validation.repository.js';
import {
  ATTEMPTS_PER_INSERT,
  attemptRow,
  validationFacts,
  type ValidationRequest,
  type Validator,
} from './validation.types.js';

const attemptOf = (req: ValidationRequest, now: number, decision: Decision): NewValidationAttempt => {
  reportValidation(decision.reason, decision.valid);
  return attemptRow(req, now, decision);
};

/**
 * Inserts a batch of attempts in one statement. If that fails (a license deleted
 * meanwhile fails the whole statement), each is inserted alone and fails alone.
 */
async function insertBatch(db: Db, batch: Pending<NewValidationAttempt, void>[]): Promise<void> {
  try {
    await repo.insertAttempts(db, batch.map((p) => p.item));
    for (const p of batch) p.resolve();
  } catch (err) {
    if (batch.length === 1) throw err;
    for (const p of batch) await repo.insertAttempts(db, [p.item]).then(() => p.resolve(), p.reject);
  }
}

export function createPostgresValidator(db: Db, historyMax: number): Validator {
  const pruning = new PruneSchedule(historyMax);
  const attempts = new GroupCommit<NewValidationAttempt, void>((batch) => insertBatch(db, batch), {
    maxBatch: ATTEMPTS_PER_INSERT.postgres,
    maxInFlight: 2, // the next batch gathers while one commits
  });

  /** The attempt is recorded by the caller; null: the license does not exist. */
  const decideWithoutLock = async (req: ValidationRequest, now: number): Promise<Decision | 'may bind' | null> => {
    const seen = await repo.readLicenseAndBindings(db, req.licenseId, req.ip, req.hwid);
    if (!seen) return null;
    // Counts only grow without the lock (validations bind, only an admin PUT unbinds): a
    // rejection on a limit stands, an admission is decided again under the lock.
    const decision = decideValidation(
      validationFacts(
        req,
        now,
        seen,
        { bound: Boolean(seen.ip_bound), used: Number(seen.ips_used) },
        { bound: Boolean(seen.hwid_bound), used: Number(seen.hwids_used) },
      ),
    );
    return decision.bindIp || decision.bindHwid ? 'may bind' : decision;
  };

  const validateLocked = (req: ValidationRequest) =>
    db.transaction().execute(async (trx) => {
      const license = await repo.lockLicense(trx, req.licenseId);
      if (!license) return false; // deleted meanwhile: nothing to record
      const now = Date.now();
      req.decidedAtEpochMillis = now;
      const ipBound = await repo.isIpBound(trx, req.licenseId, req.ip);
      const hwidBound = await repo.isHwidBound(trx, req.licenseId, req.hwid);
      const ipUsage = ipBound ? { used: 0, next: 0 } : await repo.slotUsage(trx, 'license_ips', req.licenseId);
      const hwidUsage = hwidBound ? { used: 0, next: 0 } : await repo.slotUsage(trx, 'license_hwids', req.licenseId);
      const decision = decideValidation(
        validationFacts(req, now, license, { bound: ipBound, used: ipUsage.used }, { bound: hwidBound, used: hwidUsage.used }),
      );
      if (decision.bindIp) await repo.bindIp(trx, req.licenseId, req.ip, ipUsage.next);
      if (decision.bindHwid) await repo.bindHwid(trx, req.licenseId, req.hwid, hwidUsage.next);
      await repo.insertAttempts(trx, [attemptOf(req, now, decision)]);
      return decision.valid;
    });

  const validate = async (req: ValidationRequest): Promise<boolean> => {
    const now = Date.now();
    req.decidedAtEpochMillis = now;
    const decided = await decideWithoutLock(req, now);
    if (decided === null) {
      reportValidation('UNKNOWN_LICENSE', false);
      return false; // unknown license: nothing to record
    }
    let valid: boolean;
    if (decided === 'may bind') {
      valid = await validateLocked(req);
    } else {
      try {
        await attempts.submit(attemptOf(req, now, decided));
      } catch (err) {
        if (isForeignKeyViolation(err)) return false; // the license was deleted meanwhile
        throw err;
      }
      valid = decided.valid;
    }
    if (pruning.due(req.licenseId)) await repo.pruneAttempts(db, req.licenseId, historyMax);
    return valid;
  };

  return { validate, close: () => attempts.drain() };
}
