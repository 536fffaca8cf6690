// `licenses.expiring`: once per license and expiry, 7 days before it (not for a trial, which
// announces `licenses.trial.ending` a day before its end instead). `licenses.grace.ended`:
// once per license and expiry when its grace ends, scanned with the expired ones. Each instance looks
// once a minute, and only while some enabled endpoint subscribes (a license that enters
// the window while nobody listens is announced to an endpoint that subscribes later,
// if it has not expired by then). The notice row and the event commit together, and the
// notice's key (license, expiry) makes two instances, or two scans, announce it once; a
// new expiry (a PUT, a renewal) is a new notice.
// `licenses.expired` (DECISIONS.md "License policies"): once per license and expiry, when the
// clock passes an expiry that was still ahead when it was set (a license created already
// expired, moved into the past by staff, or revoked, is not announced). Each instance scans
// once a minute from a little before its previous scan (and from the start of time once
// after it starts, so what expired while the service was down is announced at the next
// start); license_expired_notices makes several instances, or scans, announce it once.
import type { FastifyBaseLogger } from 'fastify';
import type { Storage } from '../../db/storage/storage.js';
import { getLicense, withoutHistory } from './licenses.service.js';
import { EXPIRED_EVENT_TYPE, EXPIRING_EVENT_TYPE, GRACE_ENDED_EVENT_TYPE, TRIAL_ENDING_EVENT_TYPE } from '../events/event-types.js';
import { sql } from 'kysely';
import { newEvent } from '../events/events.js';
import { enqueue } from '../events/outbox.repository.js';
import type { EventGate } from '../events/subscriptions.js';
import { DAY_MS, MINUTE_MS } from '../../lib/time.js';
import { clock } from '../../lib/clock.js';

export const EXPIRING_NOTICE_MS = 7 * DAY_MS;
const SCAN_EVERY_MS = MINUTE_MS;
const PER_SCAN = 500;

/** Queues the expiring events now due; returns how many it queued. */
export async function announceExpiring(storage: Storage, now = clock.now()): Promise<number> {
  const { db } = storage;
  const due = await db
    .selectFrom('licenses as l')
    .select(['l.id', 'l.expires_at'])
    .where('l.expires_at', '>', now)
    .where('l.expires_at', '<=', now + EXPIRING_NOTICE_MS)
    .where('l.trial', '=', 0) // a trial announces licenses.trial.ending instead
    .where(({ not, exists, selectFrom }) =>
      not(exists(selectFrom('license_expiry_notices as n').select('n.license_id').whereRef('n.license_id', '=', 'l.id').whereRef('n.expires_at', '=', 'l.expires_at'))),
    )
    .orderBy('l.expires_at')
    .limit(PER_SCAN)
    .execute();
  let queued = 0;
  for (const { id, expires_at } of due) {
    if (await announceOnce(storage, 'license_expiry_notices', id, Number(expires_at), (license) => newEvent(EXPIRING_EVENT_TYPE, license))) queued++;
  }
  return queued;
}

class ChangedMeanwhile extends Error {}

/**
 * In one transaction: the notice row (license, expiry) and the event. False when another
 * instance or scan was first, or the license changed or went meanwhile (the next scan sees
 * its new state).
 */
async function announceOnce(
  storage: Storage,
  noticeTable: 'license_expiry_notices' | 'license_expired_notices' | 'license_grace_ended_notices' | 'license_trial_ending_notices',
  licenseId: string,
  expiresAt: number,
  event: (license: ReturnType<typeof withoutHistory>) => ReturnType<typeof newEvent>,
): Promise<boolean> {
  return storage
    .transaction(async (trx) => {
      const noticed = await trx
        .insertInto(noticeTable)
        .values({ license_id: licenseId, expires_at: expiresAt })
        .onConflict((oc) => oc.doNothing())
        .returning('license_id')
        .executeTakeFirst();
      if (!noticed) return false;
      const license = withoutHistory(await getLicense(trx, licenseId));
      if (license.expiresAtEpochMillis !== expiresAt) throw new ChangedMeanwhile();
      await enqueue(trx, event(license));
      return true;
    })
    .catch((err) => {
      if (err instanceof ChangedMeanwhile || (err as { statusCode?: number }).statusCode === 404) return false;
      throw err;
    });
}

/** A scan looks this far behind the previous one: a transaction that set an expiry may commit a little after it. */
const EXPIRED_SCAN_OVERLAP_MS = 5 * MINUTE_MS;

/**
 * Queues `licenses.expired` for every license whose expiry in (since, now] was passed by
 * the clock and not yet announced; returns how many it queued.
 */
export async function announceExpired(storage: Storage, now = clock.now(), since = Number.MIN_SAFE_INTEGER): Promise<number> {
  const { db } = storage;
  let queued = 0;
  for (;;) {
    const due = await db
      .selectFrom('licenses as l')
      .select(['l.id', 'l.expires_at'])
      .where('l.expires_at', '<=', now)
      .where('l.expires_at', '>', since)
      .where('l.expiry_set_at', 'is not', null)
      .whereRef('l.expires_at', '>', 'l.expiry_set_at')
      .where(({ not, exists, selectFrom }) =>
        not(exists(selectFrom('license_expired_notices as n').select('n.license_id').whereRef('n.license_id', '=', 'l.id').whereRef('n.expires_at', '=', 'l.expires_at'))),
      )
      .orderBy('l.expires_at')
      .limit(PER_SCAN)
      .execute();
    for (const { id, expires_at } of due) {
      const expiresAt = Number(expires_at);
      if (await announceOnce(storage, 'license_expired_notices', id, expiresAt, (license) => newEvent(EXPIRED_EVENT_TYPE, license, expiresAt))) queued++;
    }
    if (due.length < PER_SCAN) return queued;
  }
}

/** A trial announces its end this long before it (DECISIONS: one day). */
export const TRIAL_ENDING_NOTICE_MS = DAY_MS;

/** Queues `licenses.trial.ending` for the trials that end within a day, once per trial and expiry; returns how many. */
export async function announceTrialEnding(storage: Storage, now = clock.now()): Promise<number> {
  const due = await storage.db
    .selectFrom('licenses as l')
    .select(['l.id', 'l.expires_at'])
    .where('l.trial', '=', 1)
    .where('l.revoked_at', 'is', null)
    .where('l.expires_at', '>', now)
    .where('l.expires_at', '<=', now + TRIAL_ENDING_NOTICE_MS)
    .where(({ not, exists, selectFrom }) =>
      not(exists(selectFrom('license_trial_ending_notices as n').select('n.license_id').whereRef('n.license_id', '=', 'l.id').whereRef('n.expires_at', '=', 'l.expires_at'))),
    )
    .orderBy('l.expires_at')
    .limit(PER_SCAN)
    .execute();
  let queued = 0;
  for (const { id, expires_at } of due) {
    const expiresAt = Number(expires_at);
    if (await announceOnce(storage, 'license_trial_ending_notices', id, expiresAt, (license) => newEvent(TRIAL_ENDING_EVENT_TYPE, license))) queued++;
  }
  return queued;
}

/**
 * Queues `licenses.grace.ended` for every license with grace (not revoked) whose grace ended
 * in (since, now] and was not announced yet, also one created already expired; returns how many.
 */
export async function announceGraceEnded(storage: Storage, now = clock.now(), since = Number.MIN_SAFE_INTEGER): Promise<number> {
  const graceEnd = sql<number>`(l.expires_at + l.grace_days * ${sql.lit(DAY_MS)})`;
  let queued = 0;
  for (;;) {
    const due = await storage.db
      .selectFrom('licenses as l')
      .select(['l.id', 'l.expires_at'])
      .where('l.grace_days', 'is not', null)
      .where('l.expires_at', 'is not', null)
      .where('l.revoked_at', 'is', null)
      .where(graceEnd, '<=', now)
      .where(graceEnd, '>', since)
      .where(({ not, exists, selectFrom }) =>
        not(exists(selectFrom('license_grace_ended_notices as n').select('n.license_id').whereRef('n.license_id', '=', 'l.id').whereRef('n.expires_at', '=', 'l.expires_at'))),
      )
      .orderBy('l.expires_at')
      .limit(PER_SCAN)
      .execute();
    for (const { id, expires_at } of due) {
      const expiresAt = Number(expires_at);
      if (await announceOnce(storage, 'license_grace_ended_notices', id, expiresAt, (license) => newEvent(GRACE_ENDED_EVENT_TYPE, license))) queued++;
    }
    if (due.length < PER_SCAN) return queued;
  }
}

export function startExpiryNotices(storage: Storage, gate: EventGate, log: FastifyBaseLogger): () => void {
  let running = false;
  let expiredRunning = false;
  let expiredSince = Number.MIN_SAFE_INTEGER; // the first scan after a start looks at every expiry
  const scanExpired = () => {
    if (expiredRunning) return;
    expiredRunning = true;
    const now = clock.now();
    announceExpired(storage, now, expiredSince)
      .then(() => announceGraceEnded(storage, now, expiredSince))
      .then(() => {
        expiredSince = now - EXPIRED_SCAN_OVERLAP_MS;
      })
      .catch((err) => log.warn({ error: (err as Error).message }, 'expired-license events: scan failed; trying again in a minute'))
      .finally(() => {
        expiredRunning = false;
      });
  };
  const timer = setInterval(() => {
    scanExpired();
    if (running || !(gate.wants(EXPIRING_EVENT_TYPE) || gate.wants(TRIAL_ENDING_EVENT_TYPE))) return;
    running = true;
    const expiring = gate.wants(EXPIRING_EVENT_TYPE) ? announceExpiring(storage) : Promise.resolve(0);
    expiring
      .then(() => (gate.wants(TRIAL_ENDING_EVENT_TYPE) ? announceTrialEnding(storage) : 0))
      .catch((err) => log.warn({ error: (err as Error).message }, 'expiring-license events: scan failed; trying again in a minute'))
      .finally(() => {
        running = false;
      });
  }, SCAN_EVERY_MS);
  timer.unref();
  return () => clearInterval(timer);
}
