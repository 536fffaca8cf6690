// @licensing/client: license validation with signed receipts, offline grace, license files and updates.
export {
  LicenseClient,
  type KeepAlive,
  type KeepAliveOptions,
  type LicenseClientOptions,
  type ReceiptPayload,
  type ValidateRequest,
  type ValidationResult,
} from './client.js';
export { MACHINE_ID_ENV, machineId } from './machine-id.js';
export { releaseMachine, type ReleaseFailure, type ReleaseRequest, type ReleaseResult } from './release.js';
export {
  type DownloadFailure,
  type LatestRelease,
  type ReleaseChannel,
  type UpdateCheck,
  type UpdateDownload,
  type UpdateFailure,
  type UpdateRequest,
} from './update.js';
export { PinnedKeys, type Jwk, type JwkSet } from './jws.js';
export { verifyLicenseFile, type LicenseFilePayload, type LicenseFileResult, type VerifyLicenseFileOptions } from './license-file.js';
export type { FeatureValue, LicenseTerms } from './terms.js';
