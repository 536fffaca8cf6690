// Every query of shared-key detection: the alert settings the detector keeps in memory, the
// sightings (one row per license, kind and distinct value, with its last sighting), the
// counts in a window, the suspected mark and the values seen most.
import { sql } from 'kysely';
import type { Db } from '../../db/database.js';

export type SightingKind = 'ip' | 'hwid';

export const productAlerts = (db: Db) =>
  db.selectFrom('products').select(['id', 'sharing_alert']).where('sharing_alert', 'is not', null).execute();

export const licenseAlerts = (db: Db) =>
  db.selectFrom('licenses').select(['id', 'sharing_alert']).where('sharing_alert', 'is not', null).execute();

/** The license's own alert and its product's (for one license page). */
export const alertsOfLicense = (db: Db, licenseId: string) =>
  db
    .selectFrom('licenses')
    .innerJoin('products', 'products.id', 'licenses.product_id')
    .select(['licenses.sharing_alert as license_alert', 'products.sharing_alert as product_alert', 'licenses.sharing_suspected_at'])
    .where('licenses.id', '=', licenseId)
    .executeTakeFirst();

export interface Sighting {
  kind: SightingKind;
  value: string;
}

/** Records sightings at `now`; a stored later sighting stays (another instance may have written it). */
export const recordSightings = (db: Db, licenseId: string, sightings: readonly Sighting[], now: number) =>
  db
    .insertInto('license_sightings')
    .values(sightings.map((s) => ({ license_id: licenseId, kind: s.kind, value: s.value, last_seen_at: now })))
    .onConflict((oc) =>
      oc
        .columns(['license_id', 'kind', 'value'])
        .doUpdateSet({ last_seen_at: (eb) => eb.ref('excluded.last_seen_at') })
        .where('license_sightings.last_seen_at', '<', now),
    )
    .execute();

/** Distinct IPs and HWIDs the license was presented from since `since` (exclusive). */
export async function countSightings(db: Db, licenseId: string, since: number): Promise<{ ips: number; hwids: number }> {
  const rows = await db
    .selectFrom('license_sightings')
    .select(['kind', (eb) => eb.fn.countAll<number>().as('n')])
    .where('license_id', '=', licenseId)
    .where('last_seen_at', '>', since)
    .groupBy('kind')
    .execute();
  const of = (kind: SightingKind) => rows.find((r) => r.kind === kind)?.n ?? 0;
  return { ips: of('ip'), hwids: of('hwid') };
}

/** Marks the license suspected unless it is already: true when this call marked it (once per arming, across instances). */
export async function markSuspected(trx: Db, licenseId: string, now: number): Promise<boolean> {
  const result = await trx
    .updateTable('licenses')
    .set({ sharing_suspected_at: now })
    .where('id', '=', licenseId)
    .where('sharing_suspected_at', 'is', null)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** Clears the mark; the time it held, or undefined when the license was not suspected. */
export const clearSuspected = (trx: Db, licenseId: string) =>
  trx
    .updateTable('licenses')
    .set({ sharing_suspected_at: null })
    .where('id', '=', licenseId)
    .where('sharing_suspected_at', 'is not', null)
    .returning(sql<number>`${sql.lit(1)}`.as('cleared'))
    .executeTakeFirst();

/** A new window starts at a clear: the sightings before it no longer count. */
export const forgetSightings = (trx: Db, licenseId: string) => trx.deleteFrom('license_sightings').where('license_id', '=', licenseId).execute();

/** Sightings older than every possible window. */
export const pruneSightings = (db: Db, before: number) => db.deleteFrom('license_sightings').where('last_seen_at', '<', before).execute();

export interface TopValue {
  value: string;
  attempts: number;
  lastSeenAtEpochMillis: number;
}

/** The values of one kind the license's recorded attempts since `since` presented most (ties: the most recent first). */
export async function topValues(db: Db, licenseId: string, kind: SightingKind, since: number, limit = 5): Promise<TopValue[]> {
  const column = kind === 'ip' ? 'ip' : 'hwid';
  const rows = await db
    .selectFrom('validation_attempts')
    .select([`${column} as value`, (eb) => eb.fn.countAll<number>().as('attempts'), (eb) => eb.fn.max('timestamp').as('last')])
    .where('license_id', '=', licenseId)
    .where('timestamp', '>', since)
    .groupBy(column)
    .orderBy('attempts', 'desc')
    .orderBy('last', 'desc')
    .limit(limit)
    .execute();
  return rows.map((r) => ({ value: String(r.value), attempts: r.attempts, lastSeenAtEpochMillis: r.last }));
}
