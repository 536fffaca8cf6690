// Plain-language labels of the validation reasons recorded with each attempt.
const REASONS: Record<string, string> = {
  VALID: 'Valid',
  GRACE: 'Valid in grace (after expiry)',
  REVOKED: 'Revoked',
  PRODUCT_MISMATCH: 'Wrong product',
  EXPIRED: 'License expired',
  GRACE_UNBOUND: 'Refused in grace (machine not bound)',
  IP_LIMIT_REACHED: 'IP limit reached',
  HWID_LIMIT_REACHED: 'HWID limit reached',
  BLOCKED: 'Blocked (blocklist)',
  UNKNOWN: 'Unknown (imported)',
};

/** `revokedReason`: the license's, shown after "Revoked:" (issue #30). */
export function reasonLabel(reason: string | undefined, successful: boolean, revokedReason?: string | null): string {
  if (reason === 'REVOKED') return revokedReason ? `Revoked: ${revokedReason}` : 'Revoked';
  return reason ? (REASONS[reason] ?? reason) : successful ? 'Valid' : 'Refused';
}
