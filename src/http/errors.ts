// HttpError carries a status and a message for the client; the error handler turns
// everything into {"error": "..."} and never leaks internals.
import type { FastifyError, FastifyInstance, FastifyRequest } from 'fastify';
import { isDatabaseUnavailable } from '../db/storage/unavailable.js';
import { formatValidationError } from './validation.js';

export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

export const badRequest = (message: string) => new HttpError(400, message);
export const notFound = (message: string) => new HttpError(404, message);
export const conflict = (message: string) => new HttpError(409, message);
export const forbidden = (message: string) => new HttpError(403, message);

export const SERVICE_UNAVAILABLE = 'Service temporarily unavailable';
/** Seconds a client should wait after a 503: about how long a database restart or failover takes. */
export const UNAVAILABLE_RETRY_AFTER_SECONDS = 5;
export const UNAVAILABLE_HEADERS = { 'retry-after': String(UNAVAILABLE_RETRY_AFTER_SECONDS) };

/** Messages for Fastify's own client errors, which otherwise mention internals. */
const FASTIFY_MESSAGES: Record<string, string> = {
  FST_ERR_CTP_INVALID_JSON_BODY: 'Request body is not valid JSON',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'Request body is empty but Content-Type is application/json',
  FST_ERR_CTP_BODY_TOO_LARGE: 'Request body is too large',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'Content-Length does not match the body',
};

/**
 * A body of a type the route does not parse (form-encoded, XML, none) is a body that is
 * not JSON: 400 like malformed JSON (DECISIONS.md), naming what was sent and what to send.
 * Fastify's own answer would be 415; docs/decisions.md explains the choice.
 */
export function unsupportedBody(request: FastifyRequest, accepted: string): HttpError {
  const sent = request.headers['content-type']?.split(';')[0]?.trim();
  return badRequest(`Request body must be ${accepted}${sent ? `, not ${sent.slice(0, 100)}` : ' (no Content-Type was sent)'}`);
}

export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError | HttpError, request, reply) => {
    if (error instanceof HttpError) {
      return reply.code(error.statusCode).headers(error.headers).send({ error: error.message });
    }
    if ((error as FastifyError).validation) {
      return reply.code(400).send({ error: formatValidationError(error as FastifyError) });
    }
    if (error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') {
      return reply.code(400).send({ error: unsupportedBody(request, 'JSON (Content-Type: application/json)').message });
    }
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      const message = FASTIFY_MESSAGES[error.code] ?? (error.code?.startsWith('FST_') ? 'Bad request' : error.message);
      return reply.code(status).send({ error: message });
    }
    if (isDatabaseUnavailable(error)) {
      // Expected during an outage: one line per request, without a stack trace.
      request.log.warn({ error: error.message, code: error.code }, 'database unavailable');
      return reply.code(503).headers(UNAVAILABLE_HEADERS).send({ error: SERVICE_UNAVAILABLE });
    }
    request.log.error({ err: error }, 'unhandled error');
    return reply.code(500).send({ error: 'Internal server error' });
  });

  app.setNotFoundHandler((request, reply) =>
    reply.code(404).send({ error: `Route ${request.method} ${request.url.split('?')[0]} not found` }),
  );
}
