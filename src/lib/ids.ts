// Identifiers: time-ordered UUIDv7 for records, CSPRNG license keys for licenses.
import { randomBytes } from 'node:crypto';
import { v7 as uuidv7 } from 'uuid';

export const newId = (): string => uuidv7();

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/** 25 Crockford base32 characters (125 random bits) as XXXXX-XXXXX-XXXXX-XXXXX-XXXXX. */
export function newLicenseKey(): string {
  const bytes = randomBytes(25);
  let key = '';
  for (let i = 0; i < 25; i += 1) {
    if (i > 0 && i % 5 === 0) key += '-';
    key += CROCKFORD[bytes[i]! & 31]; // 256 is a multiple of 32: no modulo bias
  }
  return key;
}

export const LICENSE_KEY_PATTERN = '^[0-9A-HJKMNP-TV-Z]{5}(-[0-9A-HJKMNP-TV-Z]{5}){4}$';
