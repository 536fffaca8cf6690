// Integers in responses without V8's number-to-text cache. fast-json-stringify (Fastify's
// serializer) writes a number as `'' + n`; V8 caches that text, and for a number outside
// the small-integer range (every epoch-millis timestamp) it allocates the text in the old
// generation so the cache can keep it. Each distinct timestamp thus leaves old-generation
// garbage that only a full collection frees: an unpaged list of 30,000 licenses (600,000
// attempt timestamps) left ~20 MB of it per list (docs/scale.md). For a safe integer
// `n.toFixed(0)` gives the same text (its exact digits), uncached, in the young generation,
// and twice as fast; other numbers keep the library's path (past 2**53 toFixed would print
// the exact binary value, not the shortest digits).
import { createRequire } from 'node:module';

interface SerializerMethods {
  asInteger(this: SerializerMethods, value: unknown): string;
  asNumber(this: SerializerMethods, value: unknown): string;
}

/** A safe integer past 30 bits: V8 may keep it as a heap number (the pretenured case), not a small integer. */
const isLargeInteger = (value: unknown): value is number =>
  Number.isSafeInteger(value) && ((value as number) > 0x3fffffff || (value as number) < -0x40000000);

/** The Serializer prototype of the fast-json-stringify that Fastify compiles with (its own dependency's copy). */
export function fastifySerializerPrototype(): SerializerMethods {
  const fromFastify = createRequire(createRequire(import.meta.url).resolve('fastify'));
  const fromCompiler = createRequire(fromFastify.resolve('@fastify/fast-json-stringify-compiler'));
  return (fromCompiler('fast-json-stringify/lib/serializer.js') as { prototype: SerializerMethods }).prototype;
}

/**
 * Replaces fast-json-stringify's integer and number writers with ones that format large
 * integers by toFixed(0); call before any schema is compiled (generated serializers take the
 * methods when they are built). Idempotent.
 */
export function serializeLargeIntegersUncached(): void {
  const prototype = fastifySerializerPrototype();
  if ((prototype as { uncachedIntegers?: true }).uncachedIntegers) return;
  const { asInteger, asNumber } = prototype;
  prototype.asInteger = function (value) {
    return isLargeInteger(value) ? value.toFixed(0) : asInteger.call(this, value);
  };
  prototype.asNumber = function (value) {
    return isLargeInteger(value) ? value.toFixed(0) : asNumber.call(this, value);
  };
  Object.defineProperty(prototype, 'uncachedIntegers', { value: true });
}
