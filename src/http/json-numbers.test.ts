// Responses write large integers (timestamps) by toFixed(0) instead of fast-json-stringify's
// `'' + n` (src/http/json-numbers.ts): the text must be the same for every number.
import { Type } from '@sinclair/typebox';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { fastifySerializerPrototype, serializeLargeIntegersUncached } from './json-numbers.js';

const VALUES = [
  0, -0, 1, -1, 42, 0x3fffffff, 0x40000000, -0x40000000, -0x40000001, 2 ** 31, 2 ** 32 + 1,
  1795713988393, -1795713988393, Number.MAX_SAFE_INTEGER, 2 ** 53 + 2, 1e20, 123456789012345680000, 1e21, -1e21, 1.5e300,
];
const FRACTIONS = [0.5, -2.25, 1795713988393.5, 1e-7, 3.14159];

/** One response per value through a route whose schema has an integer and a number field. */
async function serialized(values: number[]): Promise<string[]> {
  serializeLargeIntegersUncached();
  const app = Fastify();
  const schema = Type.Object({ integer: Type.Union([Type.Integer(), Type.Null()]), number: Type.Number() });
  app.get('/:i', { schema: { response: { 200: schema } } }, (request) => {
    const value = values[Number((request.params as { i: string }).i)]!;
    return { integer: Number.isInteger(value) ? value : null, number: value };
  });
  const bodies: string[] = [];
  for (const i of values.keys()) bodies.push((await app.inject({ url: `/${i}` })).body);
  await app.close();
  return bodies;
}

describe('large integers in responses (json-numbers.ts)', () => {
  it('are written exactly as JSON.stringify writes them, whatever their size', async () => {
    const bodies = await serialized(VALUES);
    VALUES.forEach((value, i) => expect(bodies[i]).toBe(`{"integer":${JSON.stringify(value)},"number":${JSON.stringify(value)}}`));
  });

  it('leave fractions to the library', async () => {
    const bodies = await serialized(FRACTIONS);
    FRACTIONS.forEach((value, i) => expect(bodies[i]).toBe(`{"integer":null,"number":${JSON.stringify(value)}}`));
  });

  it('are written by toFixed(0), uncached, once the service has patched the serializer', () => {
    serializeLargeIntegersUncached();
    const serializer = fastifySerializerPrototype();
    const patched = serializer.asNumber;
    serializeLargeIntegersUncached();
    expect(serializer.asNumber).toBe(patched); // idempotent: not wrapped twice
    const calls: number[] = [];
    const toFixed = Number.prototype.toFixed;
    Number.prototype.toFixed = function (this: number, digits?: number) {
      calls.push(this.valueOf());
      return toFixed.call(this, digits);
    };
    try {
      expect([serializer.asNumber(1795713988393), serializer.asInteger(-1795713988393), serializer.asNumber(7)]).toEqual(['1795713988393', '-1795713988393', '7']);
    } finally {
      Number.prototype.toFixed = toFixed;
    }
    expect(calls).toEqual([1795713988393, -1795713988393]);
  });
});
