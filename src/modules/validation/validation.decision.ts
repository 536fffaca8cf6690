// The validation rule itself, free of storage and HTTP: a matching blocklist rule
// (DECISIONS.md, before step 1), then the four checks of SPEC.md in
// order, the first failure ending the evaluation with its reason. With a slot timeout
// (DECISIONS.md "Bindings that heal"), idle bindings count as room: a request that would
// fail only for lack of a slot passes, and frees just enough of them. License policies
// (DECISIONS.md) are facts too: a revoked license is refused as REVOKED before the expiry
// step; in the grace days after expiry a bound HWID passes (GRACE) from any address, binding
// and releasing nothing, and anything else is refused as GRACE_UNBOUND; a first-validation clock not yet started is started by a request
// that passes every check.
import type { Reason } from '../licenses/licenses.schemas.js';

export type ValidationReason = Exclude<Reason, 'UNKNOWN'>;

/** One kind of slot (IP or HWID) as seen by one request. */
export interface SlotState {
  /** The presented IP/HWID is already bound to the license. */
  bound: boolean;
  /** How many are bound; consulted only when `bound` is false. */
  used: number;
  /** null: unlimited. */
  limit: number | null;
  /** How many bindings of this kind are idle past the slot timeout (0 without one); consulted only when full. */
  idle: number;
}

export interface ValidationFacts {
  /** A blocklist rule matched (DECISIONS.md: before step 1); absent: none did. */
  blocked?: boolean;
  /** The product refuses the version the request named (archived or unknown); absent: it does not. */
  versionRefused?: boolean;
  licenseProductId: string;
  requestedProductId: string;
  expiresAtEpochMillis: number | null;
  now: number;
  ip: SlotState;
  hwid: SlotState;
  /** The license is revoked (its own reason; never grace). */
  revoked?: boolean;
  /** End of the grace days after expiry; null/omitted: no grace. */
  graceEndsAtEpochMillis?: number | null;
  /** An expiry clock waits for the first validation that passes every check (expiryBasis firstValidation). */
  clockPending?: boolean;
}

export interface Decision {
  valid: boolean;
  reason: ValidationReason;
  /** Bind the request's IP / HWID: only when every check passed and it is new. */
  bindIp: boolean;
  bindHwid: boolean;
  /** How many idle IP / HWID bindings to free first, least recently seen first (0 unless valid). */
  releaseIps: number;
  releaseHwids: number;
  /** Start the license's expiry clock now (only when valid and the clock was pending). */
  startClock?: boolean;
}

const rejected = (reason: ValidationReason): Decision => ({
  valid: false,
  reason,
  bindIp: false,
  bindHwid: false,
  releaseIps: 0,
  releaseHwids: 0,
});

/** How many bindings must go before the request's value fits: 0 when bound, unlimited or a slot is free. */
export const shortfall = (slot: Pick<SlotState, 'bound' | 'used' | 'limit'>): number =>
  slot.bound || slot.limit === null ? 0 : Math.max(0, slot.used - slot.limit + 1);

/** A slot admits the request when nothing must go, or enough idle bindings can. */
const admits = (slot: SlotState): boolean => shortfall(slot) <= slot.idle;

/** Whether the request falls in the grace days: expired, not revoked, before the grace end. */
export const inGrace = (facts: Pick<ValidationFacts, 'now' | 'revoked' | 'graceEndsAtEpochMillis'>): boolean =>
  !facts.revoked && facts.graceEndsAtEpochMillis != null && facts.now < facts.graceEndsAtEpochMillis;

/** One step of the rule: a decision that ends the evaluation, or undefined to go on. */
export type ValidationCheck = (facts: ValidationFacts) => Decision | undefined;

const blocked: ValidationCheck = (facts) => (facts.blocked ? rejected('BLOCKED') : undefined);
const sameProduct: ValidationCheck = (facts) => (facts.licenseProductId !== facts.requestedProductId ? rejected('PRODUCT_MISMATCH') : undefined);
const notRevoked: ValidationCheck = (facts) => (facts.revoked ? rejected('REVOKED') : undefined);
const supportedVersion: ValidationCheck = (facts) => (facts.versionRefused ? rejected('VERSION_NOT_SUPPORTED') : undefined);
const notExpired: ValidationCheck = (facts) => {
  if (facts.expiresAtEpochMillis === null || facts.now < facts.expiresAtEpochMillis) return undefined;
  // In grace a bound machine passes, even from an address not yet bound (servers change
  // addresses, machines do not), binding and freeing nothing; any other request is refused.
  if (inGrace(facts)) return facts.hwid.bound ? { ...rejected('GRACE'), valid: true } : rejected('GRACE_UNBOUND');
  return rejected('EXPIRED');
};
const ipSlot: ValidationCheck = (facts) => (admits(facts.ip) ? undefined : rejected('IP_LIMIT_REACHED'));
const hwidSlot: ValidationCheck = (facts) => (admits(facts.hwid) ? undefined : rejected('HWID_LIMIT_REACHED'));

/**
 * The checks in order, the first decision ending the evaluation (keygen-api's chain of early
 * returns). Every engine and fast path decides through decideValidation, so a check added
 * here applies everywhere (validation.decision.test.ts adds one and watches each path obey).
 */
export const VALIDATION_CHECKS: ValidationCheck[] = [blocked, sameProduct, notRevoked, supportedVersion, notExpired, ipSlot, hwidSlot];

export function decideValidation(facts: ValidationFacts): Decision {
  for (const check of VALIDATION_CHECKS) {
    const decision = check(facts);
    if (decision) return decision;
  }
  const decision: Decision = {
    valid: true,
    reason: 'VALID',
    bindIp: !facts.ip.bound,
    bindHwid: !facts.hwid.bound,
    releaseIps: shortfall(facts.ip),
    releaseHwids: shortfall(facts.hwid),
  };
  if (facts.clockPending) decision.startClock = true;
  return decision;
}

/** A valid decision that writes nothing to the license (binds, frees and starts nothing): what a fast path may record alone. */
export const writesNothing = (decision: Decision): boolean =>
  decision.reason === 'VALID' && !decision.bindIp && !decision.bindHwid && decision.releaseIps === 0 && decision.releaseHwids === 0 && !decision.startClock;
