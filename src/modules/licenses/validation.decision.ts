// The validation rule itself, free of storage and HTTP: the four checks of SPEC.md in
// order, the first failure ending the evaluation with its reason.
import type { Reason } from './licenses.schemas.js';

export type ValidationReason = Exclude<Reason, 'UNKNOWN'>;

/** One kind of slot (IP or HWID) as seen by one request. */
export interface SlotState {
  /** The presented IP/HWID is already bound to the license. */
  bound: boolean;
  /** How many are bound; consulted only when `bound` is false. */
  used: number;
  /** null: unlimited. */
  limit: number | null;
}

export interface ValidationFacts {
  licenseProductId: string;
  requestedProductId: string;
  expiresAtEpochMillis: number | null;
  now: number;
  ip: SlotState;
  hwid: SlotState;
}

export interface Decision {
  valid: boolean;
  reason: ValidationReason;
  /** Bind the request's IP / HWID: only when every check passed and it is new. */
  bindIp: boolean;
  bindHwid: boolean;
}

const rejected = (reason: ValidationReason): Decision => ({ valid: false, reason, bindIp: false, bindHwid: false });

/** A slot admits the request when its value is bound already or a free slot remains. */
const admits = (slot: SlotState): boolean => slot.bound || slot.limit === null || slot.used < slot.limit;

export function decideValidation(facts: ValidationFacts): Decision {
  if (facts.licenseProductId !== facts.requestedProductId) return rejected('PRODUCT_MISMATCH');
  if (facts.expiresAtEpochMillis !== null && facts.now >= facts.expiresAtEpochMillis) return rejected('EXPIRED');
  if (!admits(facts.ip)) return rejected('IP_LIMIT_REACHED');
  if (!admits(facts.hwid)) return rejected('HWID_LIMIT_REACHED');
  return { valid: true, reason: 'VALID', bindIp: !facts.ip.bound, bindHwid: !facts.hwid.bound };
}
