// The audit entry (and event) of a first-validation clock starting (DECISIONS.md "License
// policies"): `{licenseId, expiresAtEpochMillis}` as the audit log promises, with the rest
// of the license as the API answers it (as every license event carries), by `validation`.
import type { LicenseWithoutHistory } from './licenses.service.js';

export const EXPIRY_START_ACTOR = 'validation';

export const expiryStartAudit = (license: LicenseWithoutHistory) => ({ licenseId: license.id, ...license });

/**
 * When the expiry clock started after a write that leaves the license at `expiresAt`: never
 * with a fixed expiry; a clock with an expiry keeps its start (or starts now: staff set one);
 * without an expiry it has not started (firstValidation waits for its first validation).
 */
export const clockStartAfterWrite = (basis: string, expiresAt: number | null, previous: number | null, now: number): number | null =>
  basis === 'fixed' ? null : expiresAt !== null ? (previous ?? now) : null;
