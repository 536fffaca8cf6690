// One delivery attempt: a POST that either gets a 2xx within the timeout or does not.
// Redirects are not followed, at most 2 KiB of the answer is read (the rest is dropped
// with the connection, so a 50 MB answer costs no memory), and the whole exchange is
// bounded by one deadline, so a receiver that hangs or trickles holds only its own attempt.
import http from 'node:http';
import https from 'node:https';
import { Webhook } from 'standardwebhooks';
import { guardedLookup, literalHostAllowed } from './address-guard.js';
import { discordMessage, type DiscordNames } from './discord-format.js';

export const RESPONSE_EXCERPT_BYTES = 2048;

export interface Target {
  url: string;
  format: string;
  secret: string;
  /** A rotated secret still in its overlap: signs beside `secret`. */
  previousSecret?: string | null;
}

export interface EventToSend {
  id: string;
  type: string;
  body: string;
  /** For the discord format: the names of the product and customer the event is about. */
  names?: DiscordNames;
}

export interface AttemptResult {
  delivered: boolean;
  /** The HTTP status; null: no answer (refused, timed out, connection failed). */
  status: number | null;
  /** The first 2 KiB of the answer, or why there was none. */
  body: string;
  durationMs: number;
}

export interface AttemptOptions {
  timeoutMs: number;
  allowPrivateNetworks: boolean;
}

/** The request body and headers for the endpoint's format. */
export function requestFor(target: Target, event: EventToSend, now = new Date()): { body: string; headers: Record<string, string> } {
  if (target.format === 'discord') {
    const message = discordMessage(event.type, JSON.parse(event.body), event.names);
    return { body: JSON.stringify(message), headers: { 'content-type': 'application/json' } };
  }
  // Standard Webhooks: several space-separated signatures, any of which may verify.
  const signature = [target.secret, ...(target.previousSecret ? [target.previousSecret] : [])]
    .map((secret) => new Webhook(secret).sign(event.id, now, event.body))
    .join(' ');
  return {
    body: event.body,
    headers: {
      'content-type': 'application/json',
      'webhook-id': event.id,
      'webhook-timestamp': String(Math.floor(now.getTime() / 1000)),
      'webhook-signature': signature,
    },
  };
}

export function sendAttempt(target: Target, event: EventToSend, options: AttemptOptions): Promise<AttemptResult> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const url = new URL(target.url);
  if (!literalHostAllowed(url, options.allowPrivateNetworks)) {
    return Promise.resolve({ delivered: false, status: null, body: 'refused: the URL is a private address', durationMs: 0 });
  }
  const { body, headers } = requestFor(target, event);
  const transport = url.protocol === 'https:' ? https : http;

  return new Promise<AttemptResult>((resolve) => {
    let done = false;
    const finish = (status: number | null, text: string, complete = true) => {
      if (done) return;
      done = true;
      resolve({ delivered: complete && status !== null && status >= 200 && status < 300, status, body: text, durationMs: elapsed() });
    };
    const request = transport.request(url, {
      method: 'POST',
      headers: { ...headers, 'content-length': String(Buffer.byteLength(body)), 'user-agent': 'licensing-service-webhooks/1' },
      signal: AbortSignal.timeout(options.timeoutMs),
      lookup: guardedLookup(options.allowPrivateNetworks) as never,
      agent: false, // a fresh connection per attempt: a stuck socket is never reused
    });
    request.on('error', (err: NodeJS.ErrnoException) => {
      const why = err.name === 'AbortError' || err.code === 'ABORT_ERR' ? `no answer within ${options.timeoutMs / 1000} s` : err.message;
      finish(null, why);
    });
    request.on('response', (response) => {
      const chunks: Buffer[] = [];
      let size = 0;
      const excerpt = () => Buffer.concat(chunks).subarray(0, RESPONSE_EXCERPT_BYTES).toString('utf8');
      const complete = () => {
        finish(response.statusCode ?? null, excerpt());
        response.destroy(); // the rest of the answer is not needed
      };
      response.on('data', (chunk: Buffer) => {
        chunks.push(chunk);
        size += chunk.length;
        if (size >= RESPONSE_EXCERPT_BYTES) complete();
      });
      response.on('end', complete);
      // An answer cut off (connection closed, deadline passed) is not a delivery: the
      // receiver may not have finished with the event, so it is sent again.
      response.on('error', () => finish(response.statusCode ?? null, `answer cut off: ${excerpt()}`.slice(0, RESPONSE_EXCERPT_BYTES), false));
    });
    request.end(body);
  });
}
