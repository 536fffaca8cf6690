// The audit entry (and event) of a first-validation clock starting (DECISIONS.md "License
// policies"): `{licenseId, expiresAtEpochMillis}` as the audit log promises, with the rest
// of the license as the API answers it (as every license event carries), by `validation`.
import type { LicenseWithoutHistory } from './licenses.service.js';

export const EXPIRY_START_ACTOR = 'validation';

export const expiryStartAudit = (license: LicenseWithoutHistory) => ({ licenseId: license.id, ...license });
