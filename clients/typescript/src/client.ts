// validate(): one request with a fresh nonce, a receipt checked against pinned keys, and the
// last genuine success cached (the receipt itself, so an edited cache fails verification).
import { randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { PinnedKeys, type JwkSet } from './jws.js';
import { releaseMachine, retryAfter, serviceUrl, type ReleaseRequest, type ReleaseResult } from './release.js';
import { readTerms, type FeatureValue, type LicenseTerms } from './terms.js';
import { checkForUpdate, downloadUpdate, type UpdateCheck, type UpdateContext, type UpdateDownload, type UpdateRequest } from './update.js';

export interface ReceiptPayload {
  licenseId: string;
  productId: string;
  hwid: string;
  nonce: string;
  ip: string;
  valid: boolean;
  timestampEpochMillis: number;
  /** Signed by services that know license policies; absent in older receipts. */
  expiresAtEpochMillis?: number | null;
  graceEndsAtEpochMillis?: number | null;
  features?: Record<string, FeatureValue>;
  slotTimeoutMinutes?: number | null;
  /** Only where the vendor reveals reasons. */
  reason?: string;
  /** Batch-signed receipts only: the leaf's random salt (base64url). */
  salt?: string;
}

export type ValidationResult =
  | {
      status: 'VALID' | 'VALID_OFFLINE';
      receipt: ReceiptPayload;
      /** Features, expiry, grace end, slot timeout and reason from the signed receipt. */
      terms: LicenseTerms;
    }
  | {
      status: 'INVALID';
      reason: 'REJECTED' | 'UNVERIFIED' | 'UNREACHABLE' | 'RATE_LIMITED';
      retryAfterSeconds?: number;
      /** REJECTED only, where the vendor reveals reasons: why the service refused (e.g. HWID_LIMIT_REACHED). */
      serverReason?: string;
    };

export interface KeepAliveOptions {
  /** Hears every result (VALID, VALID_OFFLINE, INVALID ...); an exception it throws goes to the logger. */
  onResult(result: ValidationResult): void;
  /** The longest wait between validations (default 1 hour); a third of the signed slotTimeoutMinutes when that is shorter. */
  intervalMs?: number;
  /** Free this machine's hwid with the service on stop (default true; needs the vendor's selfReleaseLimit). */
  releaseOnStop?: boolean;
}

export interface KeepAlive {
  /** Stops the timer, waits for a validation under way, then frees the machine (unless releaseOnStop is false). */
  stop(): Promise<ReleaseResult | null>;
}

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
const MIN_KEEP_ALIVE_MS = 1_000;
const NO_TERMS = readTerms({});

/** An answer still counts offline while its license has not expired (or is in grace). Older receipts say nothing: no limit. */
function licenseStillRuns(terms: LicenseTerms, now: number): boolean {
  if (terms.expiresAtEpochMillis === null || now < terms.expiresAtEpochMillis) return true;
  return terms.graceEndsAtEpochMillis !== null && now < terms.graceEndsAtEpochMillis;
}

export class LicenseClient {
  private readonly keys: PinnedKeys;
  private readonly graceMs: number;
  private readonly timeoutMs: number;
  /** Until when a 429's Retry-After asks us not to call again. */
  private quietUntil = 0;
  /** The terms of the last VALID or VALID_OFFLINE answer (none after an INVALID one). */
  private lastTerms: LicenseTerms = NO_TERMS;
  /** The last checkForUpdate answer: what downloadUpdate fetches unless told otherwise. */
  private lastCheck: UpdateCheck | null = null;

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

  private get updates(): UpdateContext {
    return { url: this.options.url, keys: this.keys, timeoutMs: this.timeoutMs };
  }

  /**
   * Asks the service for the newest release the license may have (POST /releases/latest, a
   * fresh nonce, binding nothing) and trusts only its signed answer: `latest` and `valid` come
   * from a release-check JWS signed by a pinned key that repeats this request and nonce.
   */
  async checkForUpdate(request: UpdateRequest): Promise<UpdateCheck> {
    this.lastCheck = await checkForUpdate(this.updates, request);
    return this.lastCheck;
  }

  /**
   * Downloads the release a check found (`options.check`, else this client's last
   * checkForUpdate) to `path`: streamed into a temporary file beside it while its sha256 is
   * computed, checked against X-Release-Sha256 and the signed check, then renamed over
   * `path` (atomically; nothing is written otherwise). Decided by the service exactly as a
   * validation (the machine is bound). Rejects only for the file system's errors.
   */
  async downloadUpdate(path: string, options: { check?: UpdateCheck } = {}): Promise<UpdateDownload> {
    const check = options.check ?? this.lastCheck;
    if (!check) throw new Error('downloadUpdate needs a checkForUpdate first (or options.check)');
    return downloadUpdate(this.updates, check, path);
  }

  private endpoint(path: string): string {
    return serviceUrl(this.options.url, path);
  }

  /** The effective features of the last VALID or VALID_OFFLINE result ({} before one, or after an INVALID one). */
  get features(): Readonly<Record<string, FeatureValue>> {
    return this.lastTerms.features;
  }

  /** One feature of the last VALID or VALID_OFFLINE result (undefined: not granted). Works offline from the cache. */
  feature(code: string): FeatureValue | undefined {
    return this.lastTerms.feature(code);
  }

  /**
   * The cached genuine success alone, without asking the service (VALID_OFFLINE within the
   * grace hours, else INVALID UNREACHABLE): gates features at start-up before the network is up.
   */
  async validateOffline(request: ValidateRequest): Promise<ValidationResult> {
    return this.remember(await this.fallback(request, 'UNREACHABLE'));
  }

  async validate(request: ValidateRequest): Promise<ValidationResult> {
    return this.remember(await this.ask(request));
  }

  private remember(result: ValidationResult): ValidationResult {
    this.lastTerms = result.status === 'INVALID' ? NO_TERMS : result.terms;
    return result;
  }

  /**
   * Keeps a floating seat: validates now, then again at least every third of the signed
   * slotTimeoutMinutes (or every intervalMs), and reports each result. The timer does not
   * keep the process alive. stop() frees the machine, so the seat is free for another at once.
   */
  keepAlive(request: ValidateRequest, options: KeepAliveOptions): KeepAlive {
    const longest = Math.max(MIN_KEEP_ALIVE_MS, options.intervalMs ?? HOUR_MS);
    let timer: NodeJS.Timeout | undefined;
    let stopped = false;
    let running: Promise<void> = Promise.resolve();
    const round = async () => {
      const result = await this.validate(request);
      if (stopped) return;
      try {
        options.onResult(result);
      } catch (err) {
        this.options.logger?.warn(`keepAlive onResult threw: ${(err as Error).message}`);
      }
      const slot = result.status === 'INVALID' ? null : result.terms.slotTimeoutMinutes;
      let delay = slot === null ? longest : Math.min(longest, Math.max(MIN_KEEP_ALIVE_MS, Math.floor((slot * 60_000) / 3)));
      if (result.status === 'INVALID' && result.retryAfterSeconds !== undefined) delay = Math.max(delay, result.retryAfterSeconds * 1000);
      if (stopped) return;
      timer = setTimeout(() => (running = round()), delay);
      timer.unref();
    };
    running = round();
    return {
      stop: async () => {
        if (stopped) return null;
        stopped = true;
        clearTimeout(timer);
        await running.catch(() => undefined); // a validation under way must not bind the machine after it is freed
        if (options.releaseOnStop === false) return null;
        return this.release({ licenseId: request.licenseId, productId: request.productId, hwid: request.hwid });
      },
    };
  }

  private async ask(request: ValidateRequest): Promise<ValidationResult> {
    if (Date.now() < this.quietUntil) return this.fallback(request, 'RATE_LIMITED');
    const nonce = randomBytes(32).toString('base64url');
    let response: Response;
    try {
      response = await fetch(this.endpoint('/licenses/validate'), {
        method: 'POST',
        // The kids this copy pins: the service signs with one of them, so a key rotation never strands it.
        headers: { 'content-type': 'application/json', accept: 'application/json', 'receipt-key-ids': this.keys.kids.join(', ') },
        // The batch form: the service signs many answers at once (DECISIONS.md "Batch-signed receipts").
        body: JSON.stringify({ ...request, nonce, receiptFormat: 'batch' }),
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
    const terms = readTerms(receipt as unknown as Record<string, unknown>);
    if (!receipt.valid) {
      await this.clearCache();
      return terms.reason === null ? { status: 'INVALID', reason: 'REJECTED' } : { status: 'INVALID', reason: 'REJECTED', serverReason: terms.reason };
    }
    await this.writeCache(response.headers.get('validation-receipt')!);
    return { status: 'VALID', receipt, terms };
  }

  /** The receipt's payload when it is signed by a pinned key and answers exactly this request. */
  private genuineReceipt(jws: string | null, request: ValidateRequest, nonce?: string): ReceiptPayload | null {
    if (!jws) return null;
    const payload = this.keys.verifyReceipt(jws) as ReceiptPayload | null; // either form: a cache may hold today's
    if (!payload || typeof payload.valid !== 'boolean' || typeof payload.timestampEpochMillis !== 'number') return null;
    if (payload.licenseId !== request.licenseId || payload.productId !== request.productId || payload.hwid !== request.hwid) return null;
    if (nonce !== undefined && payload.nonce !== nonce) return null;
    return payload;
  }

  /** A cached genuine success for the same request, young enough, else the failure. */
  private async fallback(request: ValidateRequest, reason: 'UNVERIFIED' | 'UNREACHABLE' | 'RATE_LIMITED', retryAfterSeconds?: number): Promise<ValidationResult> {
    const cached = await this.readCache(request);
    if (cached) return { status: 'VALID_OFFLINE', receipt: cached, terms: readTerms(cached as unknown as Record<string, unknown>) };
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
    const now = Date.now();
    const age = now - payload.timestampEpochMillis;
    if (!licenseStillRuns(readTerms(payload as unknown as Record<string, unknown>), now)) return null; // expired since (and out of grace)
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
