// Offline license files: a signed snapshot of the license, valid until a date.
import { PinnedKeys, type JwkSet } from './jws.js';

export interface LicenseFilePayload {
  licenseId: string;
  productId: string;
  customerId: string;
  expiresAtEpochMillis: number | null;
  maxIps: number | null;
  maxHwids: number | null;
  usedIps: string[];
  usedHwids: string[];
  issuedAtEpochMillis: number;
  validUntilEpochMillis: number;
}

export type LicenseFileResult =
  | { valid: true; license: LicenseFilePayload }
  | { valid: false; reason: 'MALFORMED' | 'BAD_SIGNATURE' | 'PRODUCT_MISMATCH' | 'EXPIRED' | 'FILE_EXPIRED' | 'HWID_NOT_ALLOWED' };

export interface VerifyLicenseFileOptions {
  /** Pinned public keys (the JWK Set shipped with the application). */
  jwks: JwkSet | PinnedKeys;
  productId: string;
  /** This machine's hardware id; without it the HWID rule is not checked. */
  hwid?: string;
  now?: number;
}

/** Accepts the compact JWS itself or the service's `{"licenseFile": "..."}` answer. */
function extractJws(text: string): string {
  const trimmed = text.trim();
  if (!trimmed.startsWith('{')) return trimmed;
  try {
    const parsed = JSON.parse(trimmed) as { licenseFile?: unknown };
    return typeof parsed.licenseFile === 'string' ? parsed.licenseFile : '';
  } catch {
    return '';
  }
}

export function verifyLicenseFile(fileContent: string, options: VerifyLicenseFileOptions): LicenseFileResult {
  const keys = options.jwks instanceof PinnedKeys ? options.jwks : new PinnedKeys(options.jwks);
  const jws = extractJws(fileContent);
  if (jws.split('.').length !== 3) return { valid: false, reason: 'MALFORMED' };
  const payload = keys.verify(jws, 'license-file') as LicenseFilePayload | null;
  if (!payload) return { valid: false, reason: 'BAD_SIGNATURE' };
  const now = options.now ?? Date.now();
  if (payload.productId !== options.productId) return { valid: false, reason: 'PRODUCT_MISMATCH' };
  if (payload.expiresAtEpochMillis !== null && now >= payload.expiresAtEpochMillis) return { valid: false, reason: 'EXPIRED' };
  if (!(now < payload.validUntilEpochMillis)) return { valid: false, reason: 'FILE_EXPIRED' };
  const used = Array.isArray(payload.usedHwids) ? payload.usedHwids : [];
  if (options.hwid !== undefined && payload.maxHwids !== null && used.length > 0) {
    if (!used.includes(options.hwid) && used.length >= payload.maxHwids) return { valid: false, reason: 'HWID_NOT_ALLOWED' };
  }
  return { valid: true, license: payload };
}
