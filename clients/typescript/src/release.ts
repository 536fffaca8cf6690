// releaseMachine(): a buyer frees a machine of their license with the key alone
// (POST /licenses/release), when the vendor allows self-service releases.

/** Which machine to free: its hwid, its IP, or both. */
export interface ReleaseRequest {
  licenseId: string;
  productId: string;
  hwid?: string;
  ip?: string;
}

export type ReleaseFailure = 'NOT_FOUND' | 'NOT_ENABLED' | 'BLOCKED' | 'FORBIDDEN' | 'RATE_LIMITED' | 'BAD_REQUEST' | 'UNREACHABLE';

/** The service's two 403 answers (its API reference): which one it is decides the reason. */
const FORBIDDEN_REASONS = new Map<string, ReleaseFailure>([
  ['Blocked', 'BLOCKED'],
  ['Self-service release is not enabled for this license', 'NOT_ENABLED'],
]);

/**
 * RELEASED: the service freed what was named (NOT_BOUND: it was not bound). The answer is
 * not signed: a forged one can only make the client believe a machine was freed.
 */
export type ReleaseResult =
  | { status: 'RELEASED' | 'NOT_BOUND'; releasedIps: string[]; releasedHwids: string[]; selfReleasesLeft: number }
  | {
      status: 'INVALID';
      /**
       * NOT_FOUND: unknown key or product; NOT_ENABLED: the vendor has not allowed it; BLOCKED: the
       * vendor blocked this machine (its IP or the named hwid); FORBIDDEN: another 403 (see message);
       * RATE_LIMITED: limit used up (see retryAfterSeconds)
       */
      reason: ReleaseFailure;
      retryAfterSeconds?: number;
      /** RATE_LIMITED: when the service accepts a release again (from Retry-After). */
      retryAtEpochMillis?: number;
      /** The service's error, e.g. "Self-service release limit reached: 3 per 30 days". */
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
  if (response.status === 403) return failed(FORBIDDEN_REASONS.get(message ?? '') ?? 'FORBIDDEN');
  if (response.status === 429) {
    const seconds = retryAfter(response);
    return { ...failed('RATE_LIMITED', seconds), retryAtEpochMillis: Date.now() + seconds * 1000 } as ReleaseResult;
  }
  if (response.status >= 400 && response.status < 500) return failed('BAD_REQUEST');
  return failed('UNREACHABLE');
}

/** "29 days", "5 hours", "12 minutes": how long a wait is, in its largest whole unit (rounded up). */
export function describeWait(seconds: number): string {
  const units: [number, string][] = [[86_400, 'day'], [3_600, 'hour'], [60, 'minute']];
  for (const [size, name] of units) {
    if (seconds >= size) {
      const n = Math.ceil(seconds / size);
      return `${n} ${name}${n === 1 ? '' : 's'}`;
    }
  }
  return `${Math.max(1, Math.ceil(seconds))} second${seconds <= 1 ? '' : 's'}`;
}

/**
 * The line the command line prints, also what a plugin can show the buyer: on success how
 * many self-releases the rolling 30 days still allow; at the limit, which limit (the
 * service's message; a bare 429 is the per-IP request limit) and when it frees.
 */
export function describeRelease(result: ReleaseResult): string {
  if (result.status !== 'INVALID') {
    const left = result.selfReleasesLeft;
    return `${result.status}; ${left} self-release${left === 1 ? '' : 's'} left in the rolling 30 days`;
  }
  if (result.reason !== 'RATE_LIMITED') return `INVALID ${result.reason}`;
  const limit = result.message ?? 'Too many requests from this address';
  const seconds = result.retryAfterSeconds ?? 60;
  const at = new Date(result.retryAtEpochMillis ?? Date.now() + seconds * 1000).toISOString();
  return `INVALID RATE_LIMITED ${limit}; try again after ${at} (in ${describeWait(seconds)})`;
}
