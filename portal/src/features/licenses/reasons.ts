// Plain-language labels of the validation reasons recorded with each attempt.
const REASONS: Record<string, string> = {
  VALID: 'Valid',
  PRODUCT_MISMATCH: 'Wrong product',
  EXPIRED: 'License expired',
  IP_LIMIT_REACHED: 'IP limit reached',
  HWID_LIMIT_REACHED: 'HWID limit reached',
  BLOCKED: 'Blocked (blocklist)',
  UNKNOWN: 'Unknown (imported)',
};

export const reasonLabel = (reason: string | undefined, successful: boolean) =>
  reason ? (REASONS[reason] ?? reason) : successful ? 'Valid' : 'Refused';
