// The one HTTP client of the portal: JSON in and out, the session's Bearer token added,
// `{"error": "..."}` bodies turned into ApiError. A 401 on an authenticated call (token
// expired, account deactivated or deleted) ends the session, which returns to sign-in.
import { session } from './session';

export class ApiError extends Error {
  constructor(
    /** HTTP status; 0 when the server could not be reached. */
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

export type QueryValue = string | number | boolean | null | undefined;

export interface RequestOptions {
  body?: unknown;
  query?: Record<string, QueryValue>;
  /** Send no token (sign-in). */
  anonymous?: boolean;
  signal?: AbortSignal;
}

const FALLBACK_MESSAGES: Record<number, string> = {
  0: 'Cannot reach the server. Check your connection and try again.',
  401: 'Your session has ended. Please sign in again.',
  403: 'You do not have permission to do this.',
  404: 'Not found. It may have been deleted.',
  409: 'This conflicts with the current state of the record.',
  429: 'Too many requests. Please wait a moment and try again.',
  500: 'Something went wrong on the server. Please try again.',
};

export function fallbackMessage(status: number): string {
  return FALLBACK_MESSAGES[status] ?? (status >= 500 ? FALLBACK_MESSAGES[500]! : `Request failed (${status}).`);
}

/** `/customers` + {q: 'acme', limit: 20} → `/customers?q=acme&limit=20`; empty values are left out. */
export function buildUrl(path: string, query: Record<string, QueryValue> = {}): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined || value === null || value === '') continue;
    params.set(key, String(value));
  }
  const search = params.toString();
  return search ? `${path}?${search}` : path;
}

/** The error message of a response body, or a plain-language one if the body has none. */
export function errorMessage(status: number, body: unknown): string {
  const error = (body as { error?: unknown } | null)?.error;
  if (typeof error === 'string' && error.trim() !== '' && status < 500) return error;
  return fallbackMessage(status);
}

/** Records of a list endpoint and how many match its filters in all. */
export interface ListPage<T> {
  records: T[];
  total: number;
}

/** The API's X-Total-Count; a missing or unreadable one falls back to the records shown. */
export function totalCount(header: string | null, shown: number): number {
  const total = header === null || header.trim() === '' ? NaN : Number(header);
  return Number.isInteger(total) && total >= 0 ? total : shown;
}

/** Sends the request; the parsed body and headers of a 2xx, ApiError otherwise. */
async function send(method: string, path: string, options: RequestOptions): Promise<{ body: unknown; headers: Headers }> {
  const headers: Record<string, string> = { accept: 'application/json' };
  const token = options.anonymous ? null : session.token();
  if (token) headers.authorization = `Bearer ${token}`;
  if (options.body !== undefined) headers['content-type'] = 'application/json';

  let response: Response;
  try {
    response = await fetch(buildUrl(path, options.query), {
      method,
      headers,
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
      signal: options.signal,
    });
  } catch (err) {
    if ((err as Error).name === 'AbortError') throw err;
    throw new ApiError(0, fallbackMessage(0));
  }

  const text = await response.text();
  let body: unknown = undefined;
  if (text) {
    try {
      body = JSON.parse(text);
    } catch {
      body = undefined;
    }
  }
  if (response.ok) return { body, headers: response.headers };

  if (response.status === 401 && token) session.end('expired');
  throw new ApiError(response.status, errorMessage(response.status, body));
}

export async function apiRequest<T>(method: string, path: string, options: RequestOptions = {}): Promise<T> {
  return (await send(method, path, options)).body as T;
}

/** GET on a list endpoint: its records and their total from X-Total-Count. */
export async function apiList<T>(path: string, query?: Record<string, QueryValue>, signal?: AbortSignal): Promise<ListPage<T>> {
  const { body, headers } = await send('GET', path, { query, signal });
  const records = (body ?? []) as T[];
  return { records, total: totalCount(headers.get('x-total-count'), records.length) };
}

export const api = {
  get: <T>(path: string, query?: Record<string, QueryValue>, signal?: AbortSignal) =>
    apiRequest<T>('GET', path, { query, signal }),
  list: apiList,
  post: <T>(path: string, body?: unknown) => apiRequest<T>('POST', path, { body: body ?? {} }),
  put: <T>(path: string, body: unknown) => apiRequest<T>('PUT', path, { body }),
  patch: <T>(path: string, body: unknown) => apiRequest<T>('PATCH', path, { body }),
  delete: (path: string) => apiRequest<void>('DELETE', path),
};
