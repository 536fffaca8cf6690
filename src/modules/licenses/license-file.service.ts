// Signed license files for offline use: the license's limits, bindings and policy (effective
// features, grace end, slot timeout), valid until a date.
import type { Db } from '../../db/database.js';
import { recordAudit } from '../audit/audit.service.js';
import { signCompact } from '../signing/jws.js';
import type { SigningKey } from '../signing/key-material.js';
import { getLicense } from './licenses.service.js';
import { DAY_MS } from '../../lib/time.js';
import { clock } from '../../lib/clock.js';

export const DEFAULT_VALID_FOR_DAYS = 365;

export async function issueLicenseFile(
  trx: Db,
  actor: string,
  id: string,
  validForDays: number,
  key: SigningKey,
): Promise<{ licenseFile: string; validUntilEpochMillis: number }> {
  const license = await getLicense(trx, id, 1);
  const issuedAtEpochMillis = clock.now();
  const payload = {
    licenseId: license.id,
    productId: license.productId,
    customerId: license.customerId,
    expiresAtEpochMillis: license.expiresAtEpochMillis,
    maxIps: license.maxIps,
    maxHwids: license.maxHwids,
    usedIps: license.usedIps,
    usedHwids: license.usedHwids,
    // License policies: the features to gate offline, when grace ends (null without grace or
    // expiry; a revoked license has none) and the slot timeout a keep-alive must beat.
    graceEndsAtEpochMillis:
      license.expiresAtEpochMillis === null || license.graceDays === null || license.revokedAtEpochMillis !== null
        ? null
        : license.expiresAtEpochMillis + license.graceDays * DAY_MS,
    features: license.effectiveFeatures,
    slotTimeoutMinutes: license.slotTimeoutMinutes,
    issuedAtEpochMillis,
    validUntilEpochMillis: issuedAtEpochMillis + validForDays * DAY_MS,
  };
  const licenseFile = signCompact(key, 'license-file', payload);
  await recordAudit(trx, actor, 'licenses.issueFile', payload);
  return { licenseFile, validUntilEpochMillis: payload.validUntilEpochMillis };
}
