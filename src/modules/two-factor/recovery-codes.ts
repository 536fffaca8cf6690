// Recovery codes: ten single-use codes of 80 random bits each (16 Crockford base32
// characters in groups of four). Stored as SHA-256: with 80 random bits a fast hash
// cannot be reversed by guessing, unlike a password.
import { randomBytes } from 'node:crypto';
import { sha256Hex } from '../../lib/secrets.js';

export const RECOVERY_CODE_COUNT = 10;
const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

export function newRecoveryCode(): string {
  const bytes = randomBytes(16);
  // 16 characters of 5 bits each, one byte per character (the low 5 bits are uniform).
  const chars = [...bytes].map((b) => ALPHABET[b & 31]).join('');
  return chars.match(/.{4}/g)!.join('-');
}

/** Case, spaces and dashes do not matter when a code is typed back. */
export const normaliseRecoveryCode = (code: string): string => code.toUpperCase().replace(/[\s-]/g, '');

export const hashRecoveryCode = (code: string): string => sha256Hex(normaliseRecoveryCode(code));

/** A code that could be a recovery code (rather than a 6-digit TOTP code). */
export const looksLikeRecoveryCode = (code: string): boolean => /^[0-9A-Z]{16}$/.test(normaliseRecoveryCode(code));
