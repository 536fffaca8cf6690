// Polymart signs what it sends: X-Polymart-Signature is the hex HMAC-SHA256 of the raw
// request body, keyed with the secret Polymart showed when the webhook (or the license
// placeholder) was set up. It is checked on the bytes as received, before any parsing.
import { createHmac, timingSafeEqual } from 'node:crypto';

export const SIGNATURE_HEADER = 'x-polymart-signature';
const HEX_SHA256 = /^[0-9a-fA-F]{64}$/;

export const polymartSignature = (body: Buffer | string, secret: string): string =>
  createHmac('sha256', secret).update(body).digest('hex');

/** Whether `signature` (the header as received) signs `body` with `secret`; compared in constant time. */
export function isPolymartSignature(body: Buffer, signature: string | string[] | undefined, secret: string): boolean {
  if (typeof signature !== 'string' || !HEX_SHA256.test(signature.trim())) return false;
  const expected = createHmac('sha256', secret).update(body).digest();
  return timingSafeEqual(expected, Buffer.from(signature.trim(), 'hex')); // both 32 bytes
}
