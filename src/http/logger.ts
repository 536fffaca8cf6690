// Log output: readable lines for a person at a terminal, one JSON object per line for a
// log collector. LOG_FORMAT (pretty|json) overrides the guess made from stdout.
import { pino, type DestinationStream, type Logger, type LoggerOptions } from 'pino';
import pretty from 'pino-pretty';
import type { Config } from '../config.js';

export const LOG_REDACT = ['req.headers.authorization', 'req.headers.cookie'];

export function usePrettyLogs(format: Config['logFormat'], stdoutIsTerminal = Boolean(process.stdout.isTTY)): boolean {
  return format === null ? stdoutIsTerminal : format === 'pretty';
}

export function loggerOptions(config: Config): object {
  const base = { level: config.logLevel, redact: LOG_REDACT };
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
