import { describe, expect, it } from 'vitest';
import { decideValidation, type SlotState, type ValidationFacts } from './validation.decision.js';

const NOW = 1_800_000_000_000;
const free = (limit: number | null = null): SlotState => ({ bound: false, used: 0, limit });
const full = (limit: number): SlotState => ({ bound: false, used: limit, limit });
const bound = (limit: number | null, used = limit ?? 1): SlotState => ({ bound: true, used, limit });

const facts = (over: Partial<ValidationFacts> = {}): ValidationFacts => ({
  licenseProductId: 'p1',
  requestedProductId: 'p1',
  expiresAtEpochMillis: null,
  now: NOW,
  ip: free(),
  hwid: free(),
  ...over,
});

describe('decideValidation', () => {
  it('accepts and binds a new IP and HWID when everything passes', () => {
    expect(decideValidation(facts())).toEqual({ valid: true, reason: 'VALID', bindIp: true, bindHwid: true });
  });

  it('binds nothing for an IP and HWID already bound, even when the slots are full', () => {
    expect(decideValidation(facts({ ip: bound(1), hwid: bound(2) }))).toEqual({ valid: true, reason: 'VALID', bindIp: false, bindHwid: false });
  });

  it('binds only what is new', () => {
    expect(decideValidation(facts({ ip: bound(2, 1), hwid: free(2) }))).toMatchObject({ bindIp: false, bindHwid: true });
  });

  it('fails on a product mismatch first, whatever else is wrong', () => {
    const d = decideValidation(facts({ requestedProductId: 'p2', expiresAtEpochMillis: NOW - 1, ip: full(0), hwid: full(0) }));
    expect(d).toEqual({ valid: false, reason: 'PRODUCT_MISMATCH', bindIp: false, bindHwid: false });
  });

  it('fails when the server time is at or past the expiry, before looking at slots', () => {
    expect(decideValidation(facts({ expiresAtEpochMillis: NOW, ip: full(1) })).reason).toBe('EXPIRED');
    expect(decideValidation(facts({ expiresAtEpochMillis: NOW - 1 })).reason).toBe('EXPIRED');
    expect(decideValidation(facts({ expiresAtEpochMillis: NOW + 1 })).reason).toBe('VALID');
    expect(decideValidation(facts({ expiresAtEpochMillis: null })).reason).toBe('VALID');
  });

  it('fails on a new IP with no free IP slot before looking at the HWID', () => {
    expect(decideValidation(facts({ ip: full(2), hwid: full(1) }))).toEqual({
      valid: false, reason: 'IP_LIMIT_REACHED', bindIp: false, bindHwid: false,
    });
    expect(decideValidation(facts({ ip: full(0) })).reason).toBe('IP_LIMIT_REACHED');
  });

  it('fails on a new HWID with no free HWID slot and then binds no IP either', () => {
    expect(decideValidation(facts({ ip: free(3), hwid: full(1) }))).toEqual({
      valid: false, reason: 'HWID_LIMIT_REACHED', bindIp: false, bindHwid: false,
    });
  });

  it('treats a null limit as unlimited and counts a slot limit exactly', () => {
    expect(decideValidation(facts({ ip: { bound: false, used: 10_000, limit: null } })).reason).toBe('VALID');
    expect(decideValidation(facts({ hwid: { bound: false, used: 2, limit: 3 } })).reason).toBe('VALID');
    expect(decideValidation(facts({ hwid: { bound: false, used: 3, limit: 3 } })).reason).toBe('HWID_LIMIT_REACHED');
    // bindings set by PUT beyond the limit: still full for new values
    expect(decideValidation(facts({ ip: { bound: false, used: 5, limit: 3 } })).reason).toBe('IP_LIMIT_REACHED');
  });
});
