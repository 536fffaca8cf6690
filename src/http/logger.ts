// Log output: readable lines for a person at a terminal, one JSON object per line for a
// log collector. LOG_FORMAT (pretty|json) overrides the guess made from stdout.
//
// License keys are the buyers' credentials and never reach a log line (DECISIONS.md,
// "Privilege boundaries"): the id in a /licenses/... URL is cut to its first 5
// characters, and as a last line of defence every line written (error messages and
// stack traces included) has anything shaped like a license key cut the same way.
import type { FastifyRequest } from 'fastify';
import { pino, type DestinationStream, type Logger, type LoggerOptions } from 'pino';
import pretty from 'pino-pretty';
import type { Config } from '../config.js';

export const LOG_REDACT = ['req.headers.authorization', 'req.headers.cookie'];

/** What remains of a license key in a log line. */
const cut = (id: string) => `${id.slice(0, 5)}…`;

/** Path words under /licenses/ that are routes, not ids. */
const LICENSE_ROUTE_WORDS = /^[a-z]+(?:-[a-z]+)*$/;

/** `/licenses/ABCDE-…/revoke?x=1` → `/licenses/ABCDE…/revoke?x=1`. */
export function redactLicenseUrl(url: string): string {
  return url.replace(/^(\/licenses\/)([^/?#]+)/, (whole, prefix: string, id: string) =>
    LICENSE_ROUTE_WORDS.test(id) || id.length <= 5 ? whole : prefix + cut(id),
  );
}

// Five groups of five, the hyphen possibly percent-encoded, any case. The cheap hint test
// first: almost no line has a hyphen-delimited group of five, so almost every line costs
// one fast scan (about a third of serialising it) instead of a full pattern search.
const ALNUM = '[0-9A-Za-z]';
const KEY_HINT = new RegExp(`-${ALNUM}{5}-|%2[Dd]`);
const KEY_SHAPED = new RegExp(`${ALNUM}{5}(?:(?:-|%2[Dd])${ALNUM}{5}){4}`, 'g');

/** Cuts every license-key-shaped string of a serialized log line. */
export const maskLicenseKeys = (line: string): string => (KEY_HINT.test(line) ? line.replace(KEY_SHAPED, cut) : line);

/** Fastify's request serializer, with the license id in the URL cut. */
const serializeRequest = (request: FastifyRequest) => ({
  method: request.method,
  url: redactLicenseUrl(request.url),
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
