// Which versions each product supports, as the validation path asks it: from memory, no
// query per request. Reloaded after a release or product change committed here (before it
// is answered, through the change feed), and when another instance's change shows: every
// POLL_MS one tiny read of the releases' counter (bumped in each release change's
// transaction) and of the products that refuse unsupported versions.
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/database.js';
import * as repo from './version-support.repository.js';

export const VERSION_POLL_MS = 500;

/** What a named version means for a validation: supported, deprecated (marked in the receipt) or refused. */
export type VersionStanding = 'supported' | 'deprecated' | 'refused';

/** A version's best status across the product's channels: published, then deprecated, then archived. */
const RANK: Record<string, number> = { published: 3, deprecated: 2, archived: 1 };

/** The audit actions whose commit may change what is supported. */
export const VERSION_CHANGES = [
  'releases.create', 'releases.update', 'releases.delete', 'releases.publish', 'releases.deprecate', 'releases.archive',
  'products.create', 'products.update', 'products.delete',
] as const;

export class VersionSupport {
  private statuses = new Map<string, Map<string, string>>();
  private refusing = new Set<string>();
  private refusingKey = '';
  private version: number | null = null;
  private loading: Promise<void> = Promise.resolve();
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly db: Db,
    private readonly log?: FastifyBaseLogger,
  ) {}

  /** The standing of `version` for `productId`; a request naming no version is supported. */
  standing(productId: string, version: string | undefined): VersionStanding {
    if (version === undefined) return 'supported';
    const status = this.statuses.get(productId)?.get(version);
    if (status === 'deprecated') return 'deprecated';
    if (this.refusing.has(productId) && (status === undefined || status === 'archived')) return 'refused';
    return 'supported';
  }

  /** Reloads from the database; calls run one after another, so the last one wins. */
  reload(): Promise<void> {
    const run = this.loading.catch(() => undefined).then(() => this.load());
    this.loading = run;
    return run;
  }

  private async load(): Promise<void> {
    // The counter first: a change committed between the reads moves it again, and the next poll reloads.
    const version = await repo.readReleasesVersion(this.db);
    const [rows, refusing] = await Promise.all([repo.namedVersions(this.db), repo.refusingProducts(this.db)]);
    const statuses = new Map<string, Map<string, string>>();
    for (const row of rows) {
      let versions = statuses.get(row.product_id);
      if (!versions) statuses.set(row.product_id, (versions = new Map()));
      const held = versions.get(row.version);
      if (held === undefined || (RANK[row.status] ?? 0) > (RANK[held] ?? 0)) versions.set(row.version, row.status);
    }
    this.statuses = statuses;
    this.refusing = new Set(refusing);
    this.refusingKey = refusing.join(',');
    this.version = version;
  }

  /** One poll: reloads when another instance changed releases or a product's refusal. A failed read keeps what is held. */
  async poll(): Promise<void> {
    try {
      const [version, refusing] = await Promise.all([repo.readReleasesVersion(this.db), repo.refusingProducts(this.db)]);
      if (version !== this.version || refusing.join(',') !== this.refusingKey) await this.reload();
    } catch (err) {
      this.log?.warn({ error: (err as Error).message }, 'versions: poll failed; the versions in memory stay in force');
    }
  }

  async start(): Promise<void> {
    await this.reload();
    this.timer = setInterval(() => void this.poll(), VERSION_POLL_MS);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.loading.catch(() => undefined);
  }
}
