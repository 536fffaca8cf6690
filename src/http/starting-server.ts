// The HTTP server of a starting service: it listens at once, before the database is
// reachable, so an orchestrator sees a live process. Until the app is ready, /healthz
// answers 200, /readyz and every other route 503 with Retry-After; then the same server,
// on the same socket, serves the Fastify app (handed over through Fastify's serverFactory).
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { FastifyServerFactory } from 'fastify';
import { SERVICE_UNAVAILABLE } from './errors.js';

type Handler = (request: IncomingMessage, response: ServerResponse) => void;

/** Seconds a client is told to wait; the same as the 503 of an unreachable database. */
const RETRY_AFTER_SECONDS = '5';

const answerWhileStarting: Handler = (request, response) => {
  const path = (request.url ?? '/').split('?')[0];
  const [status, body] =
    path === '/healthz'
      ? [200, { status: 'ok' }]
      : path === '/readyz'
        ? [503, { status: 'starting: waiting for the database' }]
        : [503, { error: SERVICE_UNAVAILABLE }];
  const headers: http.OutgoingHttpHeaders = { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' };
  if (status === 503) headers['retry-after'] = RETRY_AFTER_SECONDS;
  response.writeHead(status, headers).end(request.method === 'HEAD' ? undefined : JSON.stringify(body));
};

export interface StartingServer {
  server: http.Server;
  /** Binds the port now; the answers are the starting ones until the app is served. */
  listen(port: number, host: string): Promise<void>;
  /** For Fastify's `serverFactory`: the app's handler is kept, and served by serveApp(). */
  serverFactory: FastifyServerFactory;
  /** Every request from now on goes to the app. */
  serveApp(): void;
}

export function createStartingServer(): StartingServer {
  let handler: Handler = answerWhileStarting;
  let appHandler: Handler | null = null;
  const server = http.createServer((request, response) => handler(request, response));
  let bound = false;
  const bind = server.listen.bind(server);

  // Fastify's listen() calls server.listen() and waits for 'listening': the socket is bound
  // already, so only the event is given. (Its onListen hooks then run as usual.)
  server.listen = ((...args: unknown[]) => {
    if (!bound) return bind(...(args as Parameters<typeof bind>));
    const callback = args.find((arg) => typeof arg === 'function') as (() => void) | undefined;
    if (callback) server.once('listening', callback);
    process.nextTick(() => server.emit('listening'));
    return server;
  }) as typeof server.listen;

  let factoryCalls = 0;
  const serverFactory: FastifyServerFactory = (fastifyHandler, options) => {
    factoryCalls += 1;
    // The settings Fastify gives a server it creates itself (its defaults filled in).
    const settings = options as { keepAliveTimeout?: number; requestTimeout?: number; connectionTimeout?: number; maxRequestsPerSocket?: number };
    const target = factoryCalls === 1 ? server : http.createServer(fastifyHandler);
    target.keepAliveTimeout = settings.keepAliveTimeout ?? target.keepAliveTimeout;
    target.requestTimeout = settings.requestTimeout ?? target.requestTimeout;
    target.setTimeout(settings.connectionTimeout ?? 0);
    if (settings.maxRequestsPerSocket) target.maxRequestsPerSocket = settings.maxRequestsPerSocket;
    // Further calls: Fastify listening on `localhost` binds its other addresses itself.
    if (factoryCalls === 1) appHandler = fastifyHandler as Handler;
    return target;
  };

  return {
    server,
    listen: (port, host) =>
      new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        bind(port, host, () => {
          server.off('error', reject);
          bound = true;
          resolve();
        });
      }),
    serverFactory,
    serveApp() {
      if (!appHandler) throw new Error('the app was not built with this serverFactory');
      handler = appHandler;
    },
  };
}
