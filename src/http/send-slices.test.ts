// sendSlices on a real socket: the body arrives whole and in order with the hooks' headers,
// each slice's memory is freed once sent and at most two are held at once, a client that
// leaves stops the reading and closes the source, and a failure before the first byte is an
// ordinary error answer. freeNow frees only a Buffer that is the whole of its memory.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { until } from '../../test/helpers/until.js';
import { freeNow, sendSlices } from './send-slices.js';

const SLICE = 16 * 1024;

/** Slices of SLICE bytes (slice i filled with i % 256), recording what was made and whether the source was closed. */
function source(count: number, { failAt = -1 } = {}) {
  const made: Buffer[] = [];
  const state = { made, closed: false, mostHeld: 0 };
  async function* slices() {
    try {
      for (let i = 0; i < count; i++) {
        if (i === failAt) throw new Error('the database went away');
        state.mostHeld = Math.max(state.mostHeld, made.filter((b) => b.length > 0).length + 1);
        const slice = Buffer.allocUnsafeSlow(SLICE).fill(i % 256);
        made.push(slice);
        yield slice;
      }
    } finally {
      state.closed = true;
    }
  }
  return { state, slices };
}

const expected = (count: number) => Buffer.concat(Array.from({ length: count }, (_, i) => Buffer.alloc(SLICE, i % 256)));

describe('sendSlices', () => {
  let app: FastifyInstance | undefined;
  afterEach(async () => {
    await app?.close();
    app = undefined;
  });

  async function serve(count: number, options: { failAt?: number } = {}) {
    const { state, slices } = source(count, options);
    const sent: number[] = [];
    app = Fastify();
    app.addHook('onRequest', (_request, reply, done) => {
      reply.header('x-content-type-options', 'nosniff');
      done();
    });
    app.get('/file', async (_request, reply) => {
      sent.push(await sendSlices(reply, { 'content-type': 'application/octet-stream', 'content-length': String(count * SLICE) }, slices()));
      return reply;
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    return { state, sent, url: `http://127.0.0.1:${(app.server.address() as AddressInfo).port}/file` };
  }

  it('sends every slice in order with the headers the hooks set, holding two at most and freeing each once sent', async () => {
    const { state, sent, url } = await serve(200);
    const res = await fetch(url);
    expect(res.status).toBe(200);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('content-length')).toBe(String(200 * SLICE));
    expect(Buffer.from(await res.arrayBuffer()).equals(expected(200))).toBe(true);
    await until('the send to finish', () => sent.length === 1);
    expect(sent).toEqual([200 * SLICE]);
    expect(state.made).toHaveLength(200);
    expect(state.made.every((slice) => slice.length === 0 && slice.buffer.byteLength === 0)).toBe(true);
    expect(state.mostHeld).toBeLessThanOrEqual(2);
    expect(state.closed).toBe(true);
  });

  it('stops reading and closes its source when the client leaves', async () => {
    const count = 4000; // 64 MiB: far more than the socket buffers hold
    const { state, sent, url } = await serve(count);
    await new Promise<void>((resolve, reject) => {
      const req = http.get(url, (res) => {
        res.once('data', () => {
          req.destroy();
          resolve();
        });
      });
      req.on('error', (err) => ((err as NodeJS.ErrnoException).code === 'ECONNRESET' ? undefined : reject(err)));
    });
    await until('the source to be closed', () => state.closed);
    await until('the send to end', () => sent.length === 1);
    expect(state.made.length).toBeLessThan(count);
    expect(sent[0]).toBeLessThan(count * SLICE);
  });

  it('answers a failure to read the first slice as an error, before anything was sent', async () => {
    const { url } = await serve(3, { failAt: 0 });
    const res = await fetch(url);
    expect(res.status).toBe(500);
    expect(res.headers.get('content-type')).toMatch(/application\/json/);
  });

  it('cuts the answer when a later slice fails', async () => {
    const { state, url } = await serve(50, { failAt: 10 });
    const res = await fetch(url);
    expect(res.status).toBe(200);
    await expect(res.arrayBuffer()).rejects.toThrow();
    expect(state.closed).toBe(true);
  });
});

describe('freeNow', () => {
  it('frees a Buffer that is the whole of its memory, and nothing else', () => {
    const whole = Buffer.allocUnsafeSlow(SLICE).fill(7);
    expect(freeNow(whole)).toBe(true);
    expect(whole.length).toBe(0);

    const pooled = Buffer.from('a small pooled buffer'); // a view into Node's shared 8 KiB pool
    expect(freeNow(pooled)).toBe(false);
    expect(pooled.toString()).toBe('a small pooled buffer');

    const parent = Buffer.alloc(SLICE, 1);
    const view = parent.subarray(0, 100);
    expect(freeNow(view)).toBe(false);
    expect(parent.length).toBe(SLICE);
    expect(freeNow(Buffer.alloc(0))).toBe(false);
  });
});
