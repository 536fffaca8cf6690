// Recognises a database fault that is not the request's doing: the server is gone,
// restarting or refusing connections, the SQLite file is locked beyond the busy timeout,
// full, read-only or unreadable. Such a request is answered 503 (try again later), not
// 500, and the process keeps running; the next request tries the database again.

/**
 * pg SQLSTATEs: admin/crash shutdown, cannot connect now, too many connections, a statement
 * cancelled (57014: the statement timeout, or an operator's cancel), and class 08 (connection exception).
 */
const PG_CODES = new Set(['57P01', '57P02', '57P03', '53300', '57014']);
const SOCKET_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);
/** SQLite primary result codes (better-sqlite3 reports extended ones, e.g. SQLITE_IOERR_WRITE). */
const SQLITE_PREFIXES = ['SQLITE_FULL', 'SQLITE_BUSY', 'SQLITE_LOCKED', 'SQLITE_IOERR', 'SQLITE_READONLY', 'SQLITE_CANTOPEN'];
/** pg and pg-pool raise these without a code (a dead connection's next query, a connect timeout). */
const PG_MESSAGES = [
  'Connection terminated',
  'timeout exceeded when trying to connect',
  'Client has encountered a connection error and is not queryable',
  'Client was closed and is not queryable',
  'Query read timeout',
  'Connection terminated due to connection timeout',
];

export function isDatabaseUnavailable(err: unknown): boolean {
  if (err === null || typeof err !== 'object') return false;
  const { code, message } = err as { code?: unknown; message?: unknown };
  if (typeof code === 'string') {
    if (PG_CODES.has(code) || code.startsWith('08') || SOCKET_CODES.has(code)) return true;
    if (SQLITE_PREFIXES.some((prefix) => code === prefix || code.startsWith(`${prefix}_`))) return true;
  }
  if (typeof message === 'string' && PG_MESSAGES.some((m) => message.startsWith(m))) return true;
  // AggregateError (a connect that tried both ::1 and 127.0.0.1) carries the causes.
  const errors = (err as { errors?: unknown }).errors;
  return Array.isArray(errors) && errors.length > 0 && errors.every(isDatabaseUnavailable);
}
