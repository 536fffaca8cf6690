import { describe, expect, it } from 'vitest';
import { normalizeIp } from '../http/client-ip.js';
import { RuleIndex, type IndexedRule } from '../modules/blocklist/rule-index.js';
import { canonicalIp, rateLimitKeyOf } from './ip-address.js';

describe('rateLimitKeyOf', () => {
  it('keeps IPv4 and counts IPv6 by its /64, whatever the spelling', () => {
    expect(rateLimitKeyOf('203.0.113.9')).toBe('203.0.113.9');
    expect(rateLimitKeyOf('2001:db8:1:2::1')).toBe('2001:db8:1:2::/64');
    expect(rateLimitKeyOf('2001:0DB8:0001:0002:ffff:ffff:ffff:ffff')).toBe('2001:db8:1:2::/64');
    expect(rateLimitKeyOf('2001:db8:1:3::1')).toBe('2001:db8:1:3::/64');
    expect(rateLimitKeyOf('::1')).toBe('0:0:0:0::/64');
    expect(rateLimitKeyOf('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
  });

  it('counts an IPv4-mapped IPv6 address as its IPv4 address, however spelled', () => {
    for (const mapped of ['::ffff:1.2.3.4', '::FFFF:1.2.3.4', '0:0:0:0:0:ffff:1.2.3.4', '::ffff:102:304', '0:0:0:0:0:FFFF:0102:0304']) {
      expect(rateLimitKeyOf(mapped), mapped).toBe('1.2.3.4');
    }
  });

  it('returns a key that is not an address unchanged (a failure limit per account)', () => {
    expect(rateLimitKeyOf('staff:0f3c2a')).toBe('staff:0f3c2a');
    expect(rateLimitKeyOf('staff:2001:db8::1')).toBe('staff:2001:db8::1');
  });
});

describe('normalizeIp', () => {
  it('records an IPv4-mapped IPv6 address as IPv4 in every spelling, other IPv6 canonical', () => {
    for (const mapped of ['::ffff:1.2.3.4', '0:0:0:0:0:ffff:1.2.3.4', '::ffff:102:304', '0:0:0:0:0:FFFF:0102:0304']) {
      expect(normalizeIp(mapped), mapped).toBe('1.2.3.4');
    }
    expect(normalizeIp('2001:0db8:0:0:0:0:0:1')).toBe('2001:db8::1');
    expect(normalizeIp('::ffff:0:102:304')).toBe('::ffff:0:102:304'); // IPv4-translated (RFC 2765), not mapped
    expect(normalizeIp('not an address')).toBeNull();
  });
});

describe('one canonical form for the recorded address and the blocklist', () => {
  // They used to disagree: 0:0:0:0:0:ffff:1.2.3.4 was recorded as ::ffff:102:304 but matched by the blocklist as 1.2.3.4.
  const spellings = ['1.2.3.4', '::ffff:1.2.3.4', '0:0:0:0:0:ffff:1.2.3.4', '::ffff:102:304', '0:0:0:0:0:FFFF:0102:0304'];

  it('records every spelling of a mapped address as the address a rule on 1.2.3.4 matches', () => {
    const rule: IndexedRule = { id: 'r', type: 'ip', value: canonicalIp('1.2.3.4')!, mode: 'block', productId: null, licenseId: null, expiresAt: null };
    const index = new RuleIndex([rule]);
    for (const spelling of spellings) {
      const recorded = normalizeIp(spelling)!;
      expect(recorded, spelling).toBe('1.2.3.4');
      expect(index.match({ ip: recorded, hwid: 'H', licenseId: 'L', productId: 'P' }, Date.now()), spelling).toEqual([rule]);
      expect(rateLimitKeyOf(recorded), spelling).toBe('1.2.3.4');
    }
  });

  it('writes other IPv6 addresses as RFC 5952 text, whichever path reads them', () => {
    for (const [spelling, canonical] of [['2001:0DB8:0:0:0:0:0:1', '2001:db8::1'], ['0:0::1', '::1'], ['2001:db8:0:0:1:0:0:1', '2001:db8::1:0:0:1']]) {
      expect(canonicalIp(spelling!)).toBe(canonical);
      expect(normalizeIp(`${spelling}%eth0`)).toBe(canonical);
    }
    expect(canonicalIp('fe80::1%eth0')).toBeNull(); // a blocklist value names no interface
  });
});
