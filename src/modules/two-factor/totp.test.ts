// RFC 6238 appendix B test vectors (SHA-1, 8 digits, secret "12345678901234567890").
import { describe, expect, it } from 'vitest';
import { base32Decode, base32Encode, codeForStep, matchingStep, newTotpSecret, otpauthUri, stepAt } from './totp.js';

const RFC_KEY = Buffer.from('12345678901234567890', 'ascii');

describe('TOTP (RFC 6238)', () => {
  it.each([
    [59, '94287082'],
    [1111111109, '07081804'],
    [1111111111, '14050471'],
    [1234567890, '89005924'],
    [2000000000, '69279037'],
    [20000000000, '65353130'],
  ])('gives the RFC code at T=%i', (seconds, code) => {
    expect(codeForStep(RFC_KEY, stepAt(seconds * 1000), 8)).toBe(code);
  });

  it('round-trips base32 and makes 160-bit secrets', () => {
    const secret = newTotpSecret();
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(base32Decode(secret)).toHaveLength(20);
    expect(base32Encode(RFC_KEY)).toBe('GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ');
  });

  it('accepts the previous, current and next step only', () => {
    const secret = newTotpSecret();
    const key = base32Decode(secret);
    const now = 1_800_000_000_000;
    const step = stepAt(now);
    for (const offset of [-1, 0, 1]) expect(matchingStep(secret, codeForStep(key, step + offset), now)).toBe(step + offset);
    for (const offset of [-3, -2, 2, 3]) {
      const code = codeForStep(key, step + offset);
      // A far step's code may collide with a near one by chance (1 in 10^6); only then skip.
      const collides = [-1, 0, 1].some((o) => codeForStep(key, step + o) === code);
      if (!collides) expect(matchingStep(secret, code, now)).toBeNull();
    }
    expect(matchingStep(secret, 'abcdef', now)).toBeNull();
    expect(matchingStep(secret, '1234567', now)).toBeNull();
  });

  it('builds an otpauth URI for authenticator apps', () => {
    const text = otpauthUri('JBSWY3DPEHPK3PXP', 'jane doe');
    expect(text.startsWith('otpauth://totp/Licensing%3Ajane%20doe?')).toBe(true);
    const uri = new URL(text);
    expect(uri.searchParams.get('secret')).toBe('JBSWY3DPEHPK3PXP');
    expect(uri.searchParams.get('period')).toBe('30');
  });
});
