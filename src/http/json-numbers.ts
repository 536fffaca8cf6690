// Integers in responses without V8's number-to-text cache. fast-json-stringify (Fastify's
// serializer) writes a number as `'' + n`; V8 caches that text, and for a number outside
// the small-integer range (every epoch-millis timestamp) it allocates the text in the old
// generation so the cache can keep it. Each distinct timestamp thus leaves old-generation
// garbage that only a full collection frees: an unpaged list of 30,000 licenses (600,000
// attempt timestamps) left ~20 MB of it per list (docs/scale.md). For a safe integer
// `n.toFixed(0)` gives the same text (its exact digits), uncached, in the young generation,
// and twice as fast; other numbers keep the library's path (past 2**53 toFixed would print
// the exact binary value, not the shortest digits).
//
// The app installs this through Fastify's public compiler factory
// (`schemaController.compilersFactory.buildSerializer`), so it covers every response schema
// of this app and of nothing else. fast-json-stringify's debug mode hands back the generated
// code with the serializer instance it runs against, and `restore` rebuilds the function
// around an instance whose two number writers are ours. Integer arrays of 512+ elements are
// written by native JSON.stringify inside the library; V8's JSON writer formats numbers into
// its own buffer without the cache, so they need nothing (json-numbers.test.ts measures it).
import fastJsonStringify, { type Options as SerializerOptions } from 'fast-json-stringify';

type Writer = (value: unknown) => string;
interface NumberWriters {
  asInteger: Writer;
  asNumber: Writer;
}
type SchemaMap = NonNullable<SerializerOptions['schema']>;

/** A safe integer past 30 bits: V8 may keep it as a heap number (the pretenured case), not a small integer. */
const isLargeInteger = (value: unknown): value is number =>
  Number.isSafeInteger(value) && ((value as number) > 0x3fffffff || (value as number) < -0x40000000);

/** Marks a serializer this module built, so a test can tell that every route uses one. */
export const WRITES_INTEGERS_UNCACHED = Symbol('writesIntegersUncached');

function uncached(writers: NumberWriters): void {
  const { asInteger, asNumber } = writers;
  writers.asInteger = (value) => (isLargeInteger(value) ? value.toFixed(0) : asInteger.call(writers, value));
  writers.asNumber = (value) => (isLargeInteger(value) ? value.toFixed(0) : asNumber.call(writers, value));
}

/**
 * Fastify's `buildSerializer` factory: as Fastify's own (fast-json-stringify with the app's
 * shared schemas), with large integers written by toFixed(0).
 */
export function uncachedIntegerSerializers(externalSchemas?: unknown, serializerOptions?: SerializerOptions) {
  const options = { ...serializerOptions, schema: externalSchemas as SchemaMap | undefined };
  return (route: { schema?: unknown }) => {
    const schema = route.schema as { $id?: string };
    // As Fastify's compiler does: a schema is not its own external schema.
    const shared = options.schema && schema.$id && options.schema[schema.$id] ? { ...options.schema } : options.schema;
    if (shared !== options.schema && schema.$id) delete shared![schema.$id];
    const built = fastJsonStringify(schema as never, { ...options, schema: shared, mode: 'debug' }) as unknown as {
      code: string;
      validator: unknown;
      serializer: NumberWriters;
    };
    uncached(built.serializer);
    const serialize = fastJsonStringify.restore(built as never) as (doc: unknown) => string;
    return Object.assign(serialize, { [WRITES_INTEGERS_UNCACHED]: true as const });
  };
}
