// validate(): one request with a fresh nonce, a receipt checked against pinned keys, and the
// last genuine success cached (the receipt itself, so an edited cache fails verification).
import { randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { PinnedKeys, type JwkSet } from './jws.js';
import { releaseMachine, retryAfter, serviceUrl, type ReleaseRequest, type ReleaseResult } from './release.js';

export interface ReceiptPayload {
  licenseId: string;
  productId: string;
  hwid: string;
  nonce: string;
  ip: string;
  valid: boolean;
  timestampEpochMillis: number;
}

export type ValidationResult =
  | { status: 'VALID' | 'VALID_OFFLINE'; receipt: ReceiptPayload }
  | { status: 'INVALID'; reason: 'REJECTED' | 'UNVERIFIED' | 'UNREACHABLE' | 'RATE_LIMITED'; retryAfterSeconds?: number };

export interface LicenseClientOptions {
  /** The licensing service, e.g. https://licensing.example.com */
  url: string;
  /** Public keys pinned in the application (the service's /.well-known/jwks.json at build time). Never fetched at run time. */
  jwks: JwkSet;
  /** Where the last genuine success is kept; without it there is no offline grace. */
  cacheFile?: string;
  /** How long a cached success keeps the software running while the service cannot be reached (default 72; 0 disables). */
  graceHours?: number;
  /** Per-request timeout (default 10 000 ms). */
  timeoutMs?: number;
  /** Hears what the client tolerates (a cache it cannot write or read); never throws at the caller. */
  logger?: { warn(message: string): void };
}

export interface ValidateRequest {
  licenseId: string;
  productId: string;
  hwid: string;
}

const HOUR_MS = 3_600_000;

export class LicenseClient {
  private readonly keys: PinnedKeys;
  private readonly graceMs: number;
  private readonly timeoutMs: number;
  /** Until when a 429's Retry-After asks us not to call again. */
  private quietUntil = 0;

  constructor(private readonly options: LicenseClientOptions) {
    this.keys = new PinnedKeys(options.jwks);
    const grace = options.graceHours ?? 72;
    if (!(grace >= 0)) throw new Error('graceHours must be >= 0');
    this.graceMs = grace * HOUR_MS;
    this.timeoutMs = options.timeoutMs ?? 10_000;
  }

  /** Frees this machine's slot: see releaseMachine (release.ts). */
  release(request: ReleaseRequest): Promise<ReleaseResult> {
    return releaseMachine(this.options.url, request, { timeoutMs: this.timeoutMs });
  }

  private endpoint(path: string): string {
    return serviceUrl(this.options.url, path);
  }

  async validate(request: ValidateRequest): Promise<ValidationResult> {
    if (Date.now() < this.quietUntil) return this.fallback(request, 'RATE_LIMITED');
    const nonce = randomBytes(32).toString('base64url');
    let response: Response;
    try {
      response = await fetch(this.endpoint('/licenses/validate'), {
        method: 'POST',
        // The kids this copy pins: the service signs with one of them, so a key rotation never strands it.
        headers: { 'content-type': 'application/json', accept: 'application/json', 'receipt-key-ids': this.keys.kids.join(', ') },
        body: JSON.stringify({ ...request, nonce }),
        signal: AbortSignal.timeout(this.timeoutMs),
        redirect: 'manual', // an answer must come from the configured service, not wherever it points
      });
    } catch {
      return this.fallback(request, 'UNREACHABLE'); // connection error or timeout
    }
    if (response.status >= 500) {
      await response.body?.cancel();
      return this.fallback(request, 'UNREACHABLE');
    }
    if (response.status === 429) {
      await response.body?.cancel();
      const retryAfterSeconds = retryAfter(response);
      this.quietUntil = Date.now() + retryAfterSeconds * 1000;
      return this.fallback(request, 'RATE_LIMITED', retryAfterSeconds);
    }
    const body = (await response.json().catch(() => null)) as { valid?: unknown } | null;
    const receipt = this.genuineReceipt(response.headers.get('validation-receipt'), request, nonce);
    if (response.status !== 200 || !receipt || body?.valid !== receipt.valid) return this.fallback(request, 'UNVERIFIED');
    if (!receipt.valid) {
      await this.clearCache();
      return { status: 'INVALID', reason: 'REJECTED' };
    }
    await this.writeCache(response.headers.get('validation-receipt')!);
    return { status: 'VALID', receipt };
  }

  /** The receipt's payload when it is signed by a pinned key and answers exactly this request. */
  private genuineReceipt(jws: string | null, request: ValidateRequest, nonce?: string): ReceiptPayload | null {
    if (!jws) return null;
    const payload = this.keys.verify(jws, 'validation-receipt') as ReceiptPayload | null;
    if (!payload || typeof payload.valid !== 'boolean' || typeof payload.timestampEpochMillis !== 'number') return null;
    if (payload.licenseId !== request.licenseId || payload.productId !== request.productId || payload.hwid !== request.hwid) return null;
    if (nonce !== undefined && payload.nonce !== nonce) return null;
    return payload;
  }

  /** A cached genuine success for the same request, young enough, else the failure. */
  private async fallback(request: ValidateRequest, reason: 'UNVERIFIED' | 'UNREACHABLE' | 'RATE_LIMITED', retryAfterSeconds?: number): Promise<ValidationResult> {
    const cached = await this.readCache(request);
    if (cached) return { status: 'VALID_OFFLINE', receipt: cached };
    return retryAfterSeconds === undefined ? { status: 'INVALID', reason } : { status: 'INVALID', reason, retryAfterSeconds };
  }

  private async readCache(request: ValidateRequest): Promise<ReceiptPayload | null> {
    if (!this.options.cacheFile || this.graceMs === 0) return null;
    let jws: string;
    try {
      jws = (JSON.parse(await readFile(this.options.cacheFile, 'utf8')) as { receipt?: unknown }).receipt as string;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') this.options.logger?.warn(`license cache ${this.options.cacheFile} is unreadable: ${(err as Error).message}`);
      return null;
    }
    const payload = typeof jws === 'string' ? this.genuineReceipt(jws, request) : null;
    if (!payload?.valid) return null;
    const age = Date.now() - payload.timestampEpochMillis;
    return age >= 0 - 5 * 60_000 && age < this.graceMs ? payload : null; // 5 min of clock skew tolerated
  }

  /**
   * Writes the cache readable by its owner only (0600), atomically (a temporary file renamed
   * over it). A cache that cannot be written costs only the offline grace: the VALID stands,
   * and the logger hears why.
   */
  private async writeCache(receipt: string): Promise<void> {
    const file = this.options.cacheFile;
    if (!file) return;
    const temp = join(dirname(file), `.${basename(file)}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`);
    try {
      await mkdir(dirname(file), { recursive: true });
      await writeFile(temp, `${JSON.stringify({ receipt })}\n`, { mode: 0o600 });
      await rename(temp, file);
    } catch (err) {
      await rm(temp, { force: true }).catch(() => undefined);
      this.options.logger?.warn(`cannot write license cache ${file}: ${(err as Error).message}; offline grace unavailable`);
    }
  }

  private async clearCache(): Promise<void> {
    if (!this.options.cacheFile) return;
    await rm(this.options.cacheFile, { force: true }).catch((err: Error) =>
      this.options.logger?.warn(`cannot remove license cache ${this.options.cacheFile}: ${err.message}`),
    );
  }
}
