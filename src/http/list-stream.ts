// An unpaged list written as it is read: the same JSON array, byte for byte, that the
// route's serializer would give for all of its records at once, but sent batch by batch
// (each serialised by the record schema's compiled serializer and written with
// backpressure), so the memory it holds is one batch and the event loop answers other
// requests between batches.
import { PassThrough } from 'node:stream';
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { TSchema } from '@sinclair/typebox';
import type { FastifyReply } from 'fastify';

/** Characters per write: well below V8's large-object size (strings past it skip the young generation). */
const CHUNK_CHARS = 16 * 1024;

/** What a streaming list service is given: announce the total, then hand over batches in order. */
export interface ListWriter<T> {
  /** Sends the headers (X-Total-Count) and the opening bracket; call once, first. */
  start(total: number): void;
  /** Writes the records; resolves once the client has taken them (or throws if it left). */
  write(records: readonly T[]): Promise<void>;
}

/** Thrown into the producer when the client went away: its snapshot must be released. */
export class ClientGone extends Error {
  constructor() {
    super('The client closed the connection during a streamed list');
  }
}

/** Resolves when `out` can take more, rejects when it was closed (the client left). */
function drained(out: PassThrough): Promise<void> {
  return new Promise((resolve, reject) => {
    const done = (err?: Error) => {
      out.off('drain', onDrain);
      out.off('close', onClose);
      if (err) reject(err);
      else resolve();
    };
    const onDrain = () => done();
    const onClose = () => done(new ClientGone());
    out.on('drain', onDrain);
    out.on('close', onClose);
  });
}

/**
 * Answers the request with the list `produce` writes. `produce` runs inside its own read
 * snapshot; if the client disconnects, its next write throws ClientGone so that it ends
 * (and releases the snapshot); an error after the headers were sent cuts the response off.
 */
export async function streamList<T>(
  reply: FastifyReply,
  recordSchema: TSchema,
  produce: (writer: ListWriter<T>) => Promise<void>,
): Promise<FastifyReply> {
  const serialize = reply.compileSerializationSchema(recordSchema) as (record: T) => string;
  // Strings stay strings to the socket (no Buffer per piece): Buffers would wait in memory
  // for a collection, and the socket writes a string's bytes without one.
  const out = new PassThrough({ decodeStrings: false, encoding: 'utf8' });
  let started = false;
  let first = true;
  const writer: ListWriter<T> = {
    start(total) {
      started = true;
      reply.header('X-Total-Count', String(total)).type('application/json; charset=utf-8').send(out);
      out.write('[');
    },
    async write(records) {
      if (out.destroyed) throw new ClientGone();
      if (records.length === 0) return;
      // Written in pieces of about CHUNK_CHARS: a whole batch joined into one string (~300 KB
      // for 100 licenses) would be a large object, which only a full collection frees.
      let piece = '';
      for (const record of records) {
        piece += first ? serialize(record) : `,${serialize(record)}`;
        first = false;
        if (piece.length >= CHUNK_CHARS) {
          out.write(piece);
          piece = '';
        }
      }
      const more = piece === '' ? out.writableLength < out.writableHighWaterMark : out.write(piece);
      if (!more) await drained(out);
      await nextTurn(); // let waiting requests (validations) run between batches
    },
  };
  try {
    await produce(writer);
    out.end(']');
  } catch (err) {
    if (!started) throw err; // nothing sent yet: the error handler answers as usual
    if (!(err instanceof ClientGone)) reply.log.error({ err }, 'streamed list failed after its headers were sent');
    out.destroy();
  }
  return reply;
}

/** The OpenAPI note of every streamed list. */
export const STREAMED_LIST_NOTE =
  ' Without `limit` and `offset` the whole list is sent as it is read (chunked, in batches from one consistent ' +
  'snapshot of the database): the same JSON array, in constant memory, whatever its length.';
