// Offline license files: a signed snapshot of the license, valid until a date.
import { PinnedKeys, type JwkSet } from './jws.js';
import { readTerms, type FeatureValue, type LicenseTerms } from './terms.js';

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
  /** Signed by services that know license policies; absent in older files. */
  graceEndsAtEpochMillis?: number | null;
  features?: Record<string, FeatureValue>;
  slotTimeoutMinutes?: number | null;
  reason?: string;
}

export type LicenseFileResult =
  | {
      valid: true;
      license: LicenseFilePayload;
      /** Features (feature(code) answers offline), expiry, grace end, slot timeout. */
      terms: LicenseTerms;
      /** Set when the license has expired and the file still runs in its grace: when the grace ends. */
      inGraceUntilEpochMillis: number | null;
    }
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
  const terms = readTerms(payload as unknown as Record<string, unknown>);
  const expired = payload.expiresAtEpochMillis !== null && now >= payload.expiresAtEpochMillis;
  // A file issued in grace carries the grace end: it keeps running until then, no longer.
  const inGrace = expired && terms.graceEndsAtEpochMillis !== null && now < terms.graceEndsAtEpochMillis;
  if (expired && !inGrace) return { valid: false, reason: 'EXPIRED' };
  if (!(now < payload.validUntilEpochMillis)) return { valid: false, reason: 'FILE_EXPIRED' };
  const used = Array.isArray(payload.usedHwids) ? payload.usedHwids : [];
  if (options.hwid !== undefined && payload.maxHwids !== null && used.length > 0) {
    if (!used.includes(options.hwid) && used.length >= payload.maxHwids) return { valid: false, reason: 'HWID_NOT_ALLOWED' };
  }
  // In grace only machines already bound run (as the service answers in grace).
  if (inGrace && options.hwid !== undefined && !used.includes(options.hwid)) return { valid: false, reason: 'HWID_NOT_ALLOWED' };
  return { valid: true, license: payload, terms, inGraceUntilEpochMillis: inGrace ? terms.graceEndsAtEpochMillis : null };
}
