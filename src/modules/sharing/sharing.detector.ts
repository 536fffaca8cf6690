// Shared-key detection in this instance. The validation path calls observe() after each
// validation of a license that exists; the common case costs two map lookups and writes
// nothing: the alert settings are held in memory (polled every SETTINGS_POLL_MS), and a
// value this instance recorded for the license within RECORD_RESOLUTION_MS is not written
// again. A new value (or one whose sighting went stale) is upserted into the shared
// sightings table, the license's distinct values in the window counted there, and, when
// a limit is exceeded, the license marked suspected by a conditional update, so that of
// any number of instances exactly one writes the audit entry and event per arming.
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/database.js';
import { isForeignKeyViolation } from '../../db/storage/errors.js';
import { recordAudit } from '../audit/audit.service.js';
import type { CommittedChange } from '../events/change-feed.js';
import * as repo from './sharing.repository.js';
import { LICENSE_SETTINGS } from '../license-settings/license-settings.bounds.js';
import { parseSharingAlert, sharingAlert } from '../license-settings/license-settings.js';
import type { SharingAlert } from '../license-settings/license-settings.schemas.js';
import { HOUR_MS, MINUTE_MS } from '../../lib/time.js';
import { clock } from '../../lib/clock.js';

export const SETTINGS_POLL_MS = 1000;
/** A sighting's time may lag by this much: at most 1/60 of the shortest window (1 h). */
export const RECORD_RESOLUTION_MS = MINUTE_MS;
const PRUNE_EVERY_MS = 10 * MINUTE_MS;
/** Values remembered as recently recorded; the oldest are forgotten first (and written again when seen). */
const MAX_REMEMBERED = 200_000;

export interface Presentation {
  licenseId: string;
  /** The license's product (set by the validator when the license exists). */
  licenseProductId?: string;
  ip: string;
  hwid: string;
}

/** What the suspected entry and event carry (DECISIONS.md). */
export interface SharingSuspected {
  licenseId: string;
  distinctIps: number;
  distinctHwids: number;
  windowHours: number;
  topValues: { ips: repo.TopValue[]; hwids: repo.TopValue[] };
}

/** The changes that may set, replace or drop a product's or a license's alert (their audit data carries `id` and `sharingAlert`). */
export const SETTING_CHANGES = ['products.create', 'products.update', 'products.delete', 'licenses.create', 'licenses.update', 'licenses.delete'] as const;

const sameAlert = (a: SharingAlert | null, b: SharingAlert | null): boolean =>
  a === b || (a !== null && b !== null && a.windowHours === b.windowHours && a.distinctIps === b.distinctIps && a.distinctHwids === b.distinctHwids);

export const windowStart = (alert: SharingAlert, now: number) => now - alert.windowHours * HOUR_MS;

export const exceeds = (alert: SharingAlert, counts: { ips: number; hwids: number }): boolean =>
  (alert.distinctIps !== undefined && counts.ips > alert.distinctIps) ||
  (alert.distinctHwids !== undefined && counts.hwids > alert.distinctHwids);

export class SharingDetector {
  private productAlerts = new Map<string, SharingAlert>();
  private licenseAlerts = new Map<string, SharingAlert>();
  /** license \0 kind \0 value -> when this instance last wrote its sighting */
  private readonly recorded = new Map<string, number>();
  private refreshing: Promise<void> | null = null;
  private readonly inFlight = new Set<Promise<void>>();
  private timers: NodeJS.Timeout[] = [];
  private lastPrune = 0;

  constructor(
    private readonly db: Db,
    private readonly log?: FastifyBaseLogger,
  ) {}

  /** The alert in force for a license: its own, else its product's (null: off). */
  alertFor(licenseId: string, productId: string | undefined): SharingAlert | null {
    return sharingAlert(this.licenseAlerts.get(licenseId), productId === undefined ? undefined : this.productAlerts.get(productId));
  }

  /** Records what this validation presented, when an alert applies; resolves once any resulting mark is committed. */
  observe(p: Presentation, now = clock.now()): Promise<void> {
    if (p.licenseProductId === undefined) return Promise.resolve(); // unknown license: nothing to count
    if (this.licenseAlerts.size === 0 && this.productAlerts.size === 0) return Promise.resolve();
    const alert = this.alertFor(p.licenseId, p.licenseProductId);
    if (alert === null) return Promise.resolve();
    const due: repo.Sighting[] = [];
    for (const kind of ['ip', 'hwid'] as const) {
      const key = `${p.licenseId}\u0000${kind}\u0000${p[kind]}`;
      const last = this.recorded.get(key);
      if (last !== undefined && now - last < RECORD_RESOLUTION_MS) continue;
      this.recorded.delete(key);
      this.recorded.set(key, now);
      due.push({ kind, value: p[kind] });
    }
    if (due.length === 0) return Promise.resolve();
    if (this.recorded.size > MAX_REMEMBERED) this.forgetOldest();
    const run = this.record(p.licenseId, alert, due, now).finally(() => this.inFlight.delete(run));
    this.inFlight.add(run);
    return run;
  }

  private forgetOldest(): void {
    let excess = this.recorded.size - MAX_REMEMBERED * 0.9;
    for (const key of this.recorded.keys()) {
      if (excess-- <= 0) break;
      this.recorded.delete(key);
    }
  }

  private async record(licenseId: string, alert: SharingAlert, due: repo.Sighting[], now: number): Promise<void> {
    try {
      await repo.recordSightings(this.db, licenseId, due, now);
      const counts = await repo.countSightings(this.db, licenseId, windowStart(alert, now));
      if (exceeds(alert, counts)) await this.arm(licenseId, alert, counts, now);
    } catch (err) {
      for (const s of due) this.recorded.delete(`${licenseId}\u0000${s.kind}\u0000${s.value}`); // written again next time
      if (isForeignKeyViolation(err)) return; // the license was deleted meanwhile
      // Detection must never fail a validation: the next sighting tries again.
      this.log?.warn({ error: (err as Error).message }, 'sharing detector: sightings not recorded');
    }
  }

  private async arm(licenseId: string, alert: SharingAlert, counts: { ips: number; hwids: number }, now: number): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      if (!(await repo.markSuspected(trx, licenseId, now))) return; // already suspected: one entry per arming
      const since = windowStart(alert, now);
      const data: SharingSuspected = {
        licenseId,
        distinctIps: counts.ips,
        distinctHwids: counts.hwids,
        windowHours: alert.windowHours,
        topValues: { ips: await repo.topValues(trx, licenseId, 'ip', since), hwids: await repo.topValues(trx, licenseId, 'hwid', since) },
      };
      await recordAudit(trx, 'validation', 'licenses.sharing.suspected', data);
    });
  }

  /** After a clear: this instance writes the license's values again at their next sighting. */
  forgetLicense(licenseId: string): void {
    const prefix = `${licenseId}\u0000`;
    for (const key of this.recorded.keys()) if (key.startsWith(prefix)) this.recorded.delete(key);
  }

  /** Reads the alert settings; a failed read keeps the last ones. */
  refreshSettings(): Promise<void> {
    // One after the other: a busy pool lends this poll one connection, not two.
    this.refreshing ??= repo
      .productAlerts(this.db)
      .then(async (products) => [products, await repo.licenseAlerts(this.db)] as const)
      .then(([products, licenses]) => {
        this.productAlerts = new Map(products.map((r) => [r.id, parseSharingAlert(r.sharing_alert)!]));
        this.licenseAlerts = new Map(licenses.map((r) => [r.id, parseSharingAlert(r.sharing_alert)!]));
      })
      .catch((err: Error) => this.log?.warn({ error: err.message }, 'sharing detector: settings not refreshed'))
      .finally(() => {
        this.refreshing = null;
      });
    return this.refreshing;
  }

  /** After a change on this instance: a read that began before it may have missed it. */
  async reloadSettings(): Promise<void> {
    await this.refreshing;
    await this.refreshSettings();
  }

  /** After a product or license change committed on this instance: read the settings again when its alert is not the one held. */
  async settingChanged(change: CommittedChange): Promise<void> {
    const { id, sharingAlert } = (change.data ?? {}) as { id?: unknown; sharingAlert?: SharingAlert | null };
    if (typeof id !== 'string') return;
    const held = (change.name.startsWith('products.') ? this.productAlerts : this.licenseAlerts).get(id) ?? null;
    const now = change.name.endsWith('.delete') ? null : (sharingAlert ?? null);
    if (!sameAlert(held, now)) await this.reloadSettings();
  }

  /** Deletes sightings older than the longest window (every PRUNE_EVERY_MS at most). */
  async prune(now = clock.now()): Promise<void> {
    if (now - this.lastPrune < PRUNE_EVERY_MS) return;
    this.lastPrune = now;
    await repo.pruneSightings(this.db, now - LICENSE_SETTINGS.sharingAlert.windowHours.maximum * HOUR_MS).catch(() => undefined);
  }

  async start(): Promise<void> {
    await this.refreshSettings();
    const timer = setInterval(() => {
      void this.refreshSettings();
      void this.prune();
    }, SETTINGS_POLL_MS);
    timer.unref();
    this.timers.push(timer);
  }

  async stop(): Promise<void> {
    for (const timer of this.timers) clearInterval(timer);
    this.timers = [];
    await this.refreshing;
    await Promise.all(this.inFlight);
  }
}
