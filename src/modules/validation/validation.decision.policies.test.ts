// The policy facts of decideValidation (DECISIONS.md "License policies"): REVOKED before the
// expiry step, grace for bound values only, a pending clock started only by a pass.
import { describe, expect, it } from 'vitest';
import { decideValidation, type SlotState, type ValidationFacts } from './validation.decision.js';
import { effectiveFeatures } from '../license-settings/license-settings.js';

const NOW = 1_800_000_000_000;
const free = (): SlotState => ({ bound: false, used: 0, limit: null, idle: 0 });
const bound = (): SlotState => ({ bound: true, used: 1, limit: 1, idle: 0 });
const facts = (over: Partial<ValidationFacts> = {}): ValidationFacts => ({
  licenseProductId: 'p1', requestedProductId: 'p1', expiresAtEpochMillis: null, now: NOW, ip: bound(), hwid: bound(), ...over,
});
const expired = { expiresAtEpochMillis: NOW - 1000 };

describe('decideValidation with license policies', () => {
  it('refuses a revoked license as REVOKED after the product check and before expiry, never in grace', () => {
    expect(decideValidation(facts({ revoked: true, ...expired, graceEndsAtEpochMillis: NOW + 1000 })).reason).toBe('REVOKED');
    expect(decideValidation(facts({ revoked: true, requestedProductId: 'p2' })).reason).toBe('PRODUCT_MISMATCH');
  });

  it('in grace passes a bound HWID as GRACE, from any address (binding and freeing nothing), and refuses a new one as GRACE_UNBOUND', () => {
    const grace = { ...expired, graceEndsAtEpochMillis: NOW + 1000 };
    expect(decideValidation(facts(grace))).toEqual({ valid: true, reason: 'GRACE', bindIp: false, bindHwid: false, releaseIps: 0, releaseHwids: 0 });
    expect(decideValidation(facts({ ...grace, hwid: free() })).reason).toBe('GRACE_UNBOUND');
    // a server whose address changed: the bound machine passes, the new address is not bound, nothing is freed for it
    expect(decideValidation(facts({ ...grace, ip: { bound: false, used: 5, limit: 1, idle: 5 } }))).toEqual({
      valid: true, reason: 'GRACE', bindIp: false, bindHwid: false, releaseIps: 0, releaseHwids: 0,
    });
    expect(decideValidation(facts({ ...expired, graceEndsAtEpochMillis: NOW })).reason).toBe('EXPIRED'); // grace over
    expect(decideValidation(facts({ ...expired, graceEndsAtEpochMillis: null })).reason).toBe('EXPIRED');
  });

  it('starts a pending clock only on a pass', () => {
    expect(decideValidation(facts({ clockPending: true, ip: free(), hwid: free() }))).toMatchObject({ valid: true, startClock: true, bindIp: true });
    expect(decideValidation(facts({ clockPending: true, hwid: { bound: false, used: 1, limit: 1, idle: 0 } }))).toMatchObject({ valid: false, reason: 'HWID_LIMIT_REACHED' });
    expect(decideValidation(facts({ clockPending: true, hwid: { bound: false, used: 1, limit: 1, idle: 0 } })).startClock).toBeUndefined();
    expect(decideValidation(facts()).startClock).toBeUndefined();
  });

  it('merges features key by key, a license null removing the product key', () => {
    expect(effectiveFeatures('{"a":true,"b":1,"c":"x"}', '{"b":2,"c":null,"d":"y"}')).toEqual({ a: true, b: 2, d: 'y' });
    expect(effectiveFeatures(null, null)).toEqual({});
    expect(effectiveFeatures('{"a":1}', null)).toEqual({ a: 1 });
  });

  it('merges a tier between the product and the license, a tier null removing the product key', () => {
    expect(effectiveFeatures('{"a":1,"b":1,"c":1}', '{"c":3}', '{"b":2,"a":null,"t":true}')).toEqual({ b: 2, c: 3, t: true });
    expect(effectiveFeatures('{"a":1}', '{"a":null}', '{"a":2}')).toEqual({});
    expect(effectiveFeatures(null, null, '{"pro":true}')).toEqual({ pro: true });
  });
});
