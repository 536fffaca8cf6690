// Validation on PostgreSQL: one transaction per request that locks the license row
// (SELECT … FOR UPDATE) before reading its bindings, so concurrent validations of one
// license, from this instance or any other, are applied one at a time.
import type { Db } from '../../db/database.js';
import { pruneAttempts } from './licenses.repository.js';
import { decideValidation } from './validation.decision.js';
import { PruneSchedule } from './validation.history.js';
import * as repo from './validation.repository.js';
import type { ValidationRequest, Validator } from './validation.service.js';

export function createPostgresValidator(db: Db, historyMax: number): Validator {
  const pruning = new PruneSchedule(historyMax);
  const validateOne = (req: ValidationRequest) =>
    db.transaction().execute(async (trx) => {
      const license = await repo.lockLicense(trx, req.licenseId);
      if (!license) return false; // unknown license: nothing to record
      const now = Date.now();
      const ipBound = await repo.isIpBound(trx, req.licenseId, req.ip);
      const hwidBound = await repo.isHwidBound(trx, req.licenseId, req.hwid);
      const ipUsage = ipBound ? { used: 0, next: 0 } : await repo.slotUsage(trx, 'license_ips', req.licenseId);
      const hwidUsage = hwidBound ? { used: 0, next: 0 } : await repo.slotUsage(trx, 'license_hwids', req.licenseId);
      const decision = decideValidation({
        licenseProductId: license.product_id,
        requestedProductId: req.productId,
        expiresAtEpochMillis: license.expires_at === null ? null : Number(license.expires_at),
        now,
        ip: { bound: ipBound, used: ipUsage.used, limit: license.max_ips },
        hwid: { bound: hwidBound, used: hwidUsage.used, limit: license.max_hwids },
      });
      if (decision.bindIp) await repo.bindIp(trx, req.licenseId, req.ip, ipUsage.next);
      if (decision.bindHwid) await repo.bindHwid(trx, req.licenseId, req.hwid, hwidUsage.next);
      await repo.insertAttempt(trx, {
        license_id: req.licenseId,
        hwid: req.hwid,
        ip: req.ip,
        timestamp: now,
        successful: decision.valid ? 1 : 0,
        reason: decision.reason,
      });
      if (pruning.due(req.licenseId)) await pruneAttempts(trx, req.licenseId, historyMax);
      return decision.valid;
    });

  return { validate: validateOne, close: async () => {} };
}
