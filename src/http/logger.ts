// Log output: readable lines for a person at a terminal, one JSON object per line for a
// log collector. LOG_FORMAT (pretty|json) overrides the guess made from stdout.
//
// License keys are the buyers' credentials and never reach a log line in any form
// (DECISIONS.md "Privilege boundaries", "Safe by default"): in a request's URL, read
// percent-decoded, every path parameter of the matched route that is not a UUID, the id
// after /licenses/ on a URL no route matched, and the value of a query parameter that
// carries keys (licenseId, search, …) are cut to their first 5 characters; as a last line
// of defence every line written (URLs, error messages, stack traces) has anything shaped
// like a key or a good part of one cut the same way (lib/license-key-text.ts).
import type { FastifyRequest } from 'fastify';
import { pino, type DestinationStream, type Logger, type LoggerOptions } from 'pino';
import pretty from 'pino-pretty';
import type { Config } from '../config.js';
import { cutKey, cutKeyShapedText } from '../lib/license-key-text.js';

export const LOG_REDACT = ['req.headers.authorization', 'req.headers.cookie'];

/** Path words that are routes, not ids (`validate`, `license-file`). */
const ROUTE_WORD = /^[a-z]+(?:-[a-z]+)*$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** Where an unmatched URL's next segment is probably a key. */
const KEY_PARENT = /^(?:licenses?|releases?)$/i;
/** Query parameters whose value is, or may hold, a license key. */
const KEY_PARAMS = /^(?:license(?:ids?|key)?|key|id|search|q)$/i;

function decoded(text: string): string {
  try {
    return decodeURIComponent(text.replaceAll('+', ' '));
  } catch {
    return text; // a broken escape: the shape test below still reads its %XX parts
  }
}

/** One path segment as logged: `routeSegment` is the matched route's (`:id`), absent on a 404. */
function pathSegment(segment: string, routeSegment: string | undefined, previous: string | undefined, matched: boolean): string {
  const value = decoded(segment);
  const isParam = routeSegment !== undefined && routeSegment.startsWith(':');
  if (isParam && !UUID.test(value)) return cutKey(value);
  if (!matched && previous !== undefined && KEY_PARENT.test(decoded(previous)) && !ROUTE_WORD.test(value)) return cutKey(value);
  return cutKeyShapedText(segment);
}

function queryPart(part: string): string {
  const eq = part.indexOf('=');
  if (eq === -1) return cutKeyShapedText(part);
  const name = part.slice(0, eq);
  const value = part.slice(eq + 1);
  return `${cutKeyShapedText(name)}=${KEY_PARAMS.test(decoded(name)) ? cutKey(decoded(value)) : cutKeyShapedText(value)}`;
}

/**
 * The URL as logged: `/licenses/ABCDE-…/revoke?licenseId=%41BCDE…` → `/licenses/ABCDE…/revoke?licenseId=ABCDE…`.
 * `route` is the matched route's pattern (`/licenses/:id/revoke`), undefined when none matched.
 */
export function redactUrl(url: string, route?: string): string {
  const q = url.indexOf('?');
  const path = q === -1 ? url : url.slice(0, q);
  const routeSegments = route?.split('/');
  const segments = path.split('/');
  const shownPath = segments.map((segment, i) => pathSegment(segment, routeSegments?.[i], segments[i - 1], route !== undefined)).join('/');
  if (q === -1) return shownPath;
  return `${shownPath}?${url.slice(q + 1).split('&').map(queryPart).join('&')}`;
}

/** Cuts every license-key-shaped string of a serialized log line. */
export const maskLicenseKeys = (line: string): string => cutKeyShapedText(line);

/** Fastify's request serializer, with keys in the URL cut. */
const serializeRequest = (request: FastifyRequest) => ({
  method: request.method,
  url: redactUrl(request.url, request.routeOptions?.url),
  version: request.headers?.['accept-version'],
  host: request.host,
  remoteAddress: request.ip,
  remotePort: request.socket?.remotePort,
});

export function usePrettyLogs(format: Config['logFormat'], stdoutIsTerminal = Boolean(process.stdout.isTTY)): boolean {
  return format === null ? stdoutIsTerminal : format === 'pretty';
}

/** `destination`: where JSON lines go instead of stdout (tests capture them). */
export function loggerOptions(config: Config, destination?: { write(line: string): unknown }): object {
  const base = {
    level: config.logLevel,
    redact: LOG_REDACT,
    serializers: { req: serializeRequest },
    hooks: { streamWrite: maskLicenseKeys },
  };
  if (destination) return { ...base, stream: destination };
  if (!usePrettyLogs(config.logFormat)) return base;
  // In-process and synchronous (no transport worker): lines appear in order with the banner.
  const stream = pretty({ colorize: Boolean(process.stdout.isTTY), translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname', sync: true });
  return { ...base, stream };
}

/** The logger Fastify makes of loggerOptions(config), made before the app (the start logs its wait for the database). */
export function createLogger(config: Config): Logger {
  const { stream, ...options } = loggerOptions(config) as LoggerOptions & { stream?: DestinationStream };
  return stream ? pino(options, stream) : pino(options);
}
