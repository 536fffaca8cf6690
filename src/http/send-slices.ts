// A large body sent one slice at a time, each slice's memory freed as soon as the socket has
// taken it. The database drivers answer every read with a fresh Buffer, memory outside V8's
// heap that is otherwise returned only by a garbage collection; under the service's flags
// (--no-concurrent-marking) a marking cycle on a busy event loop lasts up to a second, and the
// slices sent meanwhile waited for it: 10 parallel downloads of 30 MB grew RSS by 200 MB
// (docs/decisions.md "Releases", memory). Here a download holds two slices, and frees them itself.
import type { FastifyReply } from 'fastify';

/**
 * Frees `buffer`'s memory now, when it is the whole of its ArrayBuffer (nothing else can view
 * it): the ArrayBuffer is detached and `buffer` becomes empty. Answers whether it was freed; a
 * view into a larger ArrayBuffer (a pool, a read buffer) is left to the garbage collector.
 */
export function freeNow(buffer: Buffer): boolean {
  const memory = buffer.buffer;
  if (!(memory instanceof ArrayBuffer) || buffer.byteOffset !== 0 || buffer.byteLength !== memory.byteLength || memory.byteLength === 0) return false;
  try {
    (memory as ArrayBuffer & { transfer(length: number): ArrayBuffer }).transfer(0);
    return true;
  } catch {
    return false; // not detachable (memory the embedder owns)
  }
}

/** Writes `slice`; true once the socket has taken all of it, false when the answer was closed first. */
function written(res: FastifyReply['raw'], slice: Buffer): Promise<boolean> {
  return new Promise((resolve) => {
    const onClose = () => resolve(false);
    res.once('close', onClose);
    res.write(slice, (err) => {
      res.off('close', onClose);
      resolve(!err);
    });
  });
}

/**
 * Answers 200 with `headers` (and those the request's hooks set) and `slices` as the body,
 * taking the reply over from Fastify. One slice is in flight and the next one read meanwhile:
 * a slice is written, freed once the socket has taken it (`freeNow`: each slice must be the
 * caller's own Buffer), and only then is the one after it asked for. The first slice is read
 * before anything is sent, so a failure there is an ordinary error answer; a failure later
 * cuts the answer. Stops reading when the client leaves. Resolves with the bytes the socket took.
 */
export async function sendSlices(reply: FastifyReply, headers: Record<string, string>, slices: AsyncIterable<Buffer>): Promise<number> {
  const source = slices[Symbol.asyncIterator]();
  let step = await source.next();
  reply.hijack();
  const res = reply.raw;
  const hooked = Object.fromEntries(Object.entries(reply.getHeaders()).filter(([, value]) => value !== undefined));
  res.writeHead(200, { ...hooked, ...headers });
  let bytes = 0;
  let complete = false;
  let next: Promise<IteratorResult<Buffer>> | undefined;
  try {
    while (!step.done) {
      const slice = step.value;
      // The next slice is read while this one is written: two per answer at most.
      next = source.next();
      next.catch(() => undefined); // awaited below, unless the client left first
      if (!(await written(res, slice))) break; // the client left: the slice may still be queued, the collector frees it
      bytes += slice.length;
      freeNow(slice);
      step = await next;
      next = undefined;
    }
    complete = step.done === true;
  } catch (err) {
    reply.log.error({ err }, 'a streamed answer failed after its headers were sent; the connection is cut');
  } finally {
    if (!complete) {
      await next?.catch(() => undefined); // a generator runs one step at a time: let the read under way end first
      await source.return?.(undefined).catch((err: unknown) => reply.log.warn({ err }, "closing a streamed answer's source failed"));
    }
  }
  if (complete) res.end();
  else res.destroy();
  return bytes;
}
