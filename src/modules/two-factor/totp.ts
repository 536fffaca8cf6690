// RFC 6238 TOTP (HMAC-SHA1, 30-second steps, 6 digits) on node:crypto: about thirty
// lines, so no dependency; the RFC's own test vectors check it (totp.test.ts).
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

export const STEP_SECONDS = 30;
export const DIGITS = 6;
/** Codes of the previous and next step are accepted too (clock drift). */
export const WINDOW_STEPS = 1;

const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

export function base32Encode(bytes: Buffer): string {
  let bits = 0;
  let value = 0;
  let out = '';
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += BASE32[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += BASE32[(value << (5 - bits)) & 31];
  return out;
}

export function base32Decode(text: string): Buffer {
  let bits = 0;
  let value = 0;
  const out: number[] = [];
  for (const char of text.replace(/=+$/, '').toUpperCase()) {
    const index = BASE32.indexOf(char);
    if (index < 0) throw new Error('invalid base32');
    value = (value << 5) | index;
    bits += 5;
    if (bits >= 8) {
      out.push((value >>> (bits - 8)) & 255);
      bits -= 8;
    }
  }
  return Buffer.from(out);
}

/** A new secret: 160 random bits (the HMAC-SHA1 key size RFC 4226 recommends), base32. */
export const newTotpSecret = (): string => base32Encode(randomBytes(20));

export const stepAt = (epochMillis: number): number => Math.floor(epochMillis / 1000 / STEP_SECONDS);

/** The code of one time step (RFC 4226 HOTP with the step as counter). */
export function codeForStep(key: Buffer, step: number, digits = DIGITS, algorithm = 'sha1'): string {
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(step));
  const mac = createHmac(algorithm, key).update(counter).digest();
  const offset = mac[mac.length - 1]! & 0x0f;
  const binary = mac.readUInt32BE(offset) & 0x7fffffff;
  return String(binary % 10 ** digits).padStart(digits, '0');
}

/**
 * The step whose code matches within the window, or null. Every candidate is compared
 * (in constant time) so timing does not tell which step matched.
 */
export function matchingStep(secret: string, code: string, nowMillis = Date.now()): number | null {
  if (!/^\d{6}$/.test(code)) return null;
  const key = base32Decode(secret);
  const now = stepAt(nowMillis);
  let matched: number | null = null;
  for (let step = now - WINDOW_STEPS; step <= now + WINDOW_STEPS; step += 1) {
    if (timingSafeEqual(Buffer.from(codeForStep(key, step)), Buffer.from(code)) && matched === null) matched = step;
  }
  return matched;
}

export function otpauthUri(secret: string, account: string, issuer = 'Licensing'): string {
  const label = encodeURIComponent(`${issuer}:${account}`);
  const params = new URLSearchParams({ secret, issuer, algorithm: 'SHA1', digits: String(DIGITS), period: String(STEP_SECONDS) });
  return `otpauth://totp/${label}?${params.toString()}`;
}
