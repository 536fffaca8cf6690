// releaseMachine(): a buyer frees a machine of their license with the key alone
// (POST /licenses/release), when the vendor allows self-service releases.

/** Which machine to free: its hwid, its IP, or both. */
export interface ReleaseRequest {
  licenseId: string;
  productId: string;
  hwid?: string;
  ip?: string;
}

export type ReleaseFailure = 'NOT_FOUND' | 'NOT_ENABLED' | 'RATE_LIMITED' | 'BAD_REQUEST' | 'UNREACHABLE';

/**
 * RELEASED: the service freed what was named (NOT_BOUND: it was not bound). The answer is
 * not signed: a forged one can only make the client believe a machine was freed.
 */
export type ReleaseResult =
  | { status: 'RELEASED' | 'NOT_BOUND'; releasedIps: string[]; releasedHwids: string[]; selfReleasesLeft: number }
  | {
      status: 'INVALID';
      /** NOT_FOUND: unknown key or product; NOT_ENABLED: the vendor has not allowed it; RATE_LIMITED: limit used up (see retryAfterSeconds) */
      reason: ReleaseFailure;
      retryAfterSeconds?: number;
      message?: string;
    };

/** The service's URL with `path`, without a doubled slash. */
export const serviceUrl = (url: string, path: string) => `${url.replace(/\/+$/, '')}${path}`;

/** A 429's Retry-After in seconds (60 when absent or unreadable). */
export function retryAfter(response: Response): number {
  const seconds = Number(response.headers.get('retry-after'));
  return Number.isFinite(seconds) && seconds > 0 ? seconds : 60;
}

/**
 * Frees the named hwid and/or IP of the license, e.g. from a `/license release` command
 * before the server moves. Redirects are not followed (an answer must come from `url`).
 */
export async function releaseMachine(url: string, request: ReleaseRequest, options: { timeoutMs?: number } = {}): Promise<ReleaseResult> {
  let response: Response;
  try {
    response = await fetch(serviceUrl(url, '/licenses/release'), {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify(request),
      signal: AbortSignal.timeout(options.timeoutMs ?? 10_000),
      redirect: 'manual',
    });
  } catch {
    return { status: 'INVALID', reason: 'UNREACHABLE' };
  }
  const body = (await response.json().catch(() => null)) as Record<string, unknown> | null;
  if (response.status === 200 && body && Array.isArray(body.releasedIps) && Array.isArray(body.releasedHwids)) {
    const released = { releasedIps: body.releasedIps as string[], releasedHwids: body.releasedHwids as string[], selfReleasesLeft: Number(body.selfReleasesLeft) };
    return { status: released.releasedIps.length + released.releasedHwids.length > 0 ? 'RELEASED' : 'NOT_BOUND', ...released };
  }
  const message = typeof body?.error === 'string' ? body.error : undefined;
  const failed = (reason: ReleaseFailure, retryAfterSeconds?: number): ReleaseResult => ({
    status: 'INVALID',
    reason,
    ...(retryAfterSeconds === undefined ? {} : { retryAfterSeconds }),
    ...(message === undefined ? {} : { message }),
  });
  if (response.status === 404) return failed('NOT_FOUND');
  if (response.status === 403) return failed('NOT_ENABLED');
  if (response.status === 429) return failed('RATE_LIMITED', retryAfter(response));
  if (response.status >= 400 && response.status < 500) return failed('BAD_REQUEST');
  return failed('UNREACHABLE');
}
