// A real HTTP server standing in for a vendor's webhook receiver: it records every request
// and answers as the test tells it to (a status, a hang, a redirect, a huge or cut-off body).
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { until } from './until.js';

export interface Received {
  headers: IncomingMessage['headers'];
  body: string;
  /** What the receiver answered (undefined: it did not answer). */
  answered?: number;
}

export type Behaviour = (request: Received, response: ServerResponse) => void;

export const answer = (status: number, body = ''): Behaviour => (_request, response) => {
  response.writeHead(status, { 'content-type': 'text/plain' }).end(body);
};

export interface Receiver {
  url: string;
  received: Received[];
  /** How the next requests are answered (default 204). */
  behave(behaviour: Behaviour): void;
  /** Resolves once `count` requests matching `filter` have arrived. */
  waitFor(count: number, filter?: (r: Received) => boolean, timeoutMs?: number): Promise<Received[]>;
  close(): Promise<void>;
}

export async function startReceiver(path = '/hook'): Promise<Receiver> {
  const received: Received[] = [];
  let behaviour: Behaviour = answer(204);
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const record: Received = { headers: request.headers, body: Buffer.concat(chunks).toString('utf8') };
      received.push(record);
      response.on('finish', () => (record.answered = response.statusCode));
      behaviour(record, response);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${path}`,
    received,
    behave: (next) => (behaviour = next),
    waitFor: (count, filter = () => true, timeoutMs = 15_000) =>
      until(`${count} matching requests at the receiver`, () => received.filter(filter), (matching) => matching.length >= count, { timeoutMs }),
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** The event a standard-format request carried. */
export const eventOf = (r: Received) => JSON.parse(r.body) as { type: string; timestamp: string; data: Record<string, unknown> };
