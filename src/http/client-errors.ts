// Errors raised before a request reaches routing answer in the contract's shape
// `{"error": "…"}` too: HTTP framing Node's parser rejects (bad chunking, smuggling
// shapes such as Content-Length with Transfer-Encoding), headers too large, a URL
// Fastify cannot decode.
import http from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';

/** Fastify's clientErrorHandler: the socket has no request yet, so the answer is written raw. */
export function answerClientError(err: NodeJS.ErrnoException, socket: Socket): void {
  // A reset connection has no one to answer.
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, message] =
    err.code === 'HPE_HEADER_OVERFLOW'
      ? [431, 'Request header fields too large']
      : err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [408, 'Request timed out']
        : [400, 'Malformed HTTP request'];
  const body = JSON.stringify({ error: message });
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${http.STATUS_CODES[status]}\r\nConnection: close\r\nContent-Type: application/json; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
    );
  }
  socket.destroy();
}

/** Fastify's frameworkErrors: raised while routing, before any handler or hook. */
export function answerFrameworkError(error: FastifyError, _request: FastifyRequest, reply: FastifyReply): void {
  reply.code(400).send({ error: error.code === 'FST_ERR_BAD_URL' ? 'Malformed URL' : 'Bad request' });
}
