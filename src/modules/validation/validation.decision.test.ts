import { describe, expect, it } from 'vitest';
import { decideValidation, type SlotState, type ValidationFacts } from './validation.decision.js';

const NOW = 1_800_000_000_000;
const free = (limit: number | null = null): SlotState => ({ bound: false, used: 0, limit, idle: 0 });
const full = (limit: number): SlotState => ({ bound: false, used: limit, limit, idle: 0 });
const bound = (limit: number | null, used = limit ?? 1): SlotState => ({ bound: true, used, limit, idle: 0 });

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
    expect(decideValidation(facts())).toEqual({ valid: true, reason: 'VALID', bindIp: true, bindHwid: true, releaseIps: 0, releaseHwids: 0 });
  });

  it('binds nothing for an IP and HWID already bound, even when the slots are full', () => {
    expect(decideValidation(facts({ ip: bound(1), hwid: bound(2) }))).toEqual({ valid: true, reason: 'VALID', bindIp: false, bindHwid: false, releaseIps: 0, releaseHwids: 0 });
  });

  it('binds only what is new', () => {
    expect(decideValidation(facts({ ip: bound(2, 1), hwid: free(2) }))).toMatchObject({ bindIp: false, bindHwid: true, releaseIps: 0, releaseHwids: 0 });
  });

  it('fails on a product mismatch first, whatever else is wrong', () => {
    const d = decideValidation(facts({ requestedProductId: 'p2', expiresAtEpochMillis: NOW - 1, ip: full(0), hwid: full(0) }));
    expect(d).toEqual({ valid: false, reason: 'PRODUCT_MISMATCH', bindIp: false, bindHwid: false, releaseIps: 0, releaseHwids: 0 });
  });

  it('fails when the server time is at or past the expiry, before looking at slots', () => {
    expect(decideValidation(facts({ expiresAtEpochMillis: NOW, ip: full(1) })).reason).toBe('EXPIRED');
    expect(decideValidation(facts({ expiresAtEpochMillis: NOW - 1 })).reason).toBe('EXPIRED');
    expect(decideValidation(facts({ expiresAtEpochMillis: NOW + 1 })).reason).toBe('VALID');
    expect(decideValidation(facts({ expiresAtEpochMillis: null })).reason).toBe('VALID');
  });

  it('fails on a new IP with no free IP slot before looking at the HWID', () => {
    expect(decideValidation(facts({ ip: full(2), hwid: full(1) }))).toEqual({
      valid: false, reason: 'IP_LIMIT_REACHED', bindIp: false, bindHwid: false, releaseIps: 0, releaseHwids: 0,
    });
    expect(decideValidation(facts({ ip: full(0) })).reason).toBe('IP_LIMIT_REACHED');
  });

  it('fails on a new HWID with no free HWID slot and then binds no IP either', () => {
    expect(decideValidation(facts({ ip: free(3), hwid: full(1) }))).toEqual({
      valid: false, reason: 'HWID_LIMIT_REACHED', bindIp: false, bindHwid: false, releaseIps: 0, releaseHwids: 0,
    });
  });

  it('treats a null limit as unlimited and counts a slot limit exactly', () => {
    expect(decideValidation(facts({ ip: { bound: false, used: 10_000, limit: null, idle: 0 } })).reason).toBe('VALID');
    expect(decideValidation(facts({ hwid: { bound: false, used: 2, limit: 3, idle: 0 } })).reason).toBe('VALID');
    expect(decideValidation(facts({ hwid: { bound: false, used: 3, limit: 3, idle: 0 } })).reason).toBe('HWID_LIMIT_REACHED');
    // bindings set by PUT beyond the limit: still full for new values
    expect(decideValidation(facts({ ip: { bound: false, used: 5, limit: 3, idle: 0 } })).reason).toBe('IP_LIMIT_REACHED');
  });

  it('counts idle bindings as room: frees just enough, only when every check passes', () => {
    const idleFull = (limit: number, used: number, idle: number): SlotState => ({ bound: false, used, limit, idle });
    expect(decideValidation(facts({ hwid: idleFull(2, 2, 2) }))).toEqual({
      valid: true, reason: 'VALID', bindIp: true, bindHwid: true, releaseIps: 0, releaseHwids: 1,
    });
    // bindings set by PUT beyond the limit: enough must go to get under it
    expect(decideValidation(facts({ ip: idleFull(2, 4, 3) }))).toMatchObject({ valid: true, releaseIps: 3 });
    expect(decideValidation(facts({ ip: idleFull(2, 4, 2) })).reason).toBe('IP_LIMIT_REACHED');
    // a later check that fails frees nothing
    expect(decideValidation(facts({ ip: idleFull(1, 1, 1), hwid: full(1) }))).toMatchObject({
      valid: false, reason: 'HWID_LIMIT_REACHED', releaseIps: 0, releaseHwids: 0,
    });
    expect(decideValidation(facts({ expiresAtEpochMillis: NOW, hwid: idleFull(1, 1, 1) }))).toMatchObject({ reason: 'EXPIRED', releaseHwids: 0 });
    // a bound value or a free slot never frees anything, idle or not
    expect(decideValidation(facts({ ip: { bound: true, used: 3, limit: 3, idle: 3 }, hwid: idleFull(3, 2, 2) }))).toMatchObject({
      releaseIps: 0, releaseHwids: 0,
    });
  });
});
