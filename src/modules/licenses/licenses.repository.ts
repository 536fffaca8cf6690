// Every query of the license records (CRUD side). Bound lists and attempts are loaded
// for a whole selection of licenses with one query each, never one license at a time.
import type { Db } from '../../db/database.js';
import { afterKey, containsIgnoringCase, withPage, withSort, type Page, type Sort, type SortColumns } from '../../db/list-queries.js';
import type { LicenseRecord, NewValidationAttempt } from '../../db/schema.js';
import { clock } from '../../lib/clock.js';
import { lockRows } from '../../db/storage/row-locks.js';
import { sql, type Expression, type ExpressionBuilder, type SqlBool } from 'kysely';
import type { Database } from '../../db/schema.js';
import { DAY_MS } from '../../lib/time.js';
import type { LicenseStatus } from '../license-settings/license-terms.js';

export interface LicenseFilter extends Page, Sort {
  id?: string;
  /** Part of the key, ignoring case. */
  keyContains?: string;
  customerId?: string;
  productId?: string;
  /** Only licenses not expired at this time (epoch millis). */
  activeAt?: number;
  /** Only licenses expired at this time (expiry at or before it). */
  expiredAt?: number;
  /** Only licenses suspected of sharing. */
  sharingSuspected?: true;
  /** Only licenses in one of these lifecycle states at `statusAt`. */
  statuses?: readonly LicenseStatus[];
  statusAt?: number;
  /** Only trials (true) or only licenses that are not (false). */
  trial?: boolean;
}

/** The end of grace in SQL: the expiry plus the grace days (bigint arithmetic on both engines). */
const graceEnd = sql<number>`(licenses.expires_at + coalesce(licenses.grace_days, 0) * ${sql.lit(DAY_MS)})`;

/** The SQL condition of one lifecycle status at `now` (licenseStatus in license-terms.ts, in SQL). */
function statusCondition(eb: ExpressionBuilder<Database, 'licenses'>, status: LicenseStatus, now: number): Expression<SqlBool> {
  const live = eb('licenses.revoked_at', 'is', null);
  const notStarted = eb.and([
    eb('licenses.expiry_basis', '=', 'firstValidation'),
    eb('licenses.expires_at', 'is', null),
    eb('licenses.expiry_started_at', 'is', null),
  ]);
  switch (status) {
    case 'revoked':
      return eb('licenses.revoked_at', 'is not', null);
    case 'expired':
      return eb.and([live, eb('licenses.expires_at', 'is not', null), eb(graceEnd, '<=', now)]);
    case 'grace':
      return eb.and([live, eb('licenses.expires_at', '<=', now), eb(graceEnd, '>', now)]);
    case 'notStarted':
      return eb.and([live, notStarted]);
    case 'active':
      return eb.and([live, eb.not(notStarted), eb.or([eb('licenses.expires_at', 'is', null), eb('licenses.expires_at', '>', now)])]);
  }
}

/** Fields GET /licenses may sort by; a license without expiry sorts as the latest to expire. */
export const LICENSE_SORT: SortColumns = {
  columns: { createdAt: 'licenses.created_at', expiresAt: 'licenses.expires_at' },
  nullable: ['expiresAt'],
  recordFields: { createdAt: 'createdAtEpochMillis', expiresAt: 'expiresAtEpochMillis' },
};

/** The licenses the filter matches, before paging: the selection and its count share it. */
function matchingLicenses(db: Db, filter: LicenseFilter) {
  let query = db.selectFrom('licenses');
  if (filter.id !== undefined) query = query.where('licenses.id', '=', filter.id);
  if (filter.customerId !== undefined) query = query.where('licenses.customer_id', '=', filter.customerId);
  if (filter.productId !== undefined) query = query.where('licenses.product_id', '=', filter.productId);
  if (filter.keyContains !== undefined) query = query.where(containsIgnoringCase('licenses.id', filter.keyContains));
  if (filter.sharingSuspected) query = query.where('licenses.sharing_suspected_at', 'is not', null);
  if (filter.trial !== undefined) query = query.where('licenses.trial', '=', filter.trial ? 1 : 0);
  const { statuses, statusAt } = filter;
  if (statuses !== undefined && statusAt !== undefined) {
    query = query.where((eb) => eb.or(statuses.map((status) => statusCondition(eb, status, statusAt))));
  }
  const { activeAt, expiredAt } = filter;
  if (expiredAt !== undefined) query = query.where('licenses.expires_at', '<=', expiredAt);
  if (activeAt !== undefined) {
    query = query.where((eb) => eb.or([eb('licenses.expires_at', 'is', null), eb('licenses.expires_at', '>', activeAt)]));
  }
  return query;
}

/** Ids of the selected licenses, in the list's order: the list itself and the children's subquery. */
const selectedIds = (db: Db, filter: LicenseFilter) =>
  withPage(withSort(afterKey(matchingLicenses(db, filter), LICENSE_SORT, filter, 'licenses.id').select('licenses.id'), LICENSE_SORT, filter, 'licenses.id'), filter);

export async function countLicenses(db: Db, filter: LicenseFilter): Promise<number> {
  const row = await matchingLicenses(db, filter).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  return row.n;
}

/**
 * A license row with how many self-service releases it made since a moment (the rolling
 * window) and its product's features (the tier its effectiveFeatures merge over).
 */
export type LicenseRow = LicenseRecord & { self_releases_used: number; product_features: string | null; tier_features: string | null };

/** The query of findLicenseRows (SQLite's validation batch runs it synchronously). */
export const licenseRowsQuery = (db: Db, filter: LicenseFilter, selfReleasesSince: number) =>
  withSort(
    db
      .selectFrom('licenses')
      .selectAll('licenses')
      .select((eb) =>
        eb
          .selectFrom('self_releases')
          .select((count) => count.fn.countAll<number>().as('n'))
          .whereRef('self_releases.license_id', '=', 'licenses.id')
          .where('self_releases.released_at', '>', selfReleasesSince)
          .as('self_releases_used'),
      )
      .select((eb) => eb.selectFrom('products').select('products.features').whereRef('products.id', '=', 'licenses.product_id').as('product_features'))
      .select((eb) =>
        eb
          .selectFrom('product_tiers')
          .select('product_tiers.features')
          .whereRef('product_tiers.product_id', '=', 'licenses.product_id')
          .whereRef('product_tiers.code', '=', 'licenses.tier')
          .as('tier_features'),
      )
      .where('licenses.id', 'in', selectedIds(db, filter)),
    LICENSE_SORT,
    filter,
    'licenses.id',
  );

export function findLicenseRows(db: Db, filter: LicenseFilter, selfReleasesSince: number): Promise<LicenseRow[]> {
  return licenseRowsQuery(db, filter, selfReleasesSince).execute() as Promise<LicenseRow[]>;
}

export const ipRowsQuery = (db: Db, filter: LicenseFilter) =>
  db
    .selectFrom('license_ips')
    .select(['license_id', 'ip', 'first_seen_at', 'last_seen_at'])
    .where('license_id', 'in', selectedIds(db, filter))
    .orderBy('license_id')
    .orderBy('position');

export const hwidRowsQuery = (db: Db, filter: LicenseFilter) =>
  db
    .selectFrom('license_hwids')
    .select(['license_id', 'hwid', 'first_seen_at', 'last_seen_at'])
    .where('license_id', 'in', selectedIds(db, filter))
    .orderBy('license_id')
    .orderBy('position');

export const ipRowsOf = (db: Db, filter: LicenseFilter) => ipRowsQuery(db, filter).execute();

export const hwidRowsOf = (db: Db, filter: LicenseFilter) => hwidRowsQuery(db, filter).execute();

/** Attempts oldest first (the index on license_id, timestamp, id serves the order). */
export const attemptRowsOf = (db: Db, filter: LicenseFilter) =>
  db
    .selectFrom('validation_attempts')
    .select(['license_id', 'hwid', 'ip', 'timestamp', 'successful', 'reason'])
    .where('license_id', 'in', selectedIds(db, filter))
    .orderBy('license_id')
    .orderBy('timestamp')
    .orderBy('id')
    .execute();

// ---- writes -----------------------------------------------------------------------

export const insertLicense = (trx: Db, row: LicenseRecord) => trx.insertInto('licenses').values(row).execute();

/** The optimistic-concurrency step: succeeds only when the stored version is `version`. */
export async function bumpVersion(trx: Db, id: string, version: number): Promise<boolean> {
  const result = await trx
    .updateTable('licenses')
    .set((eb) => ({ version: eb('version', '+', 1) }))
    .where('id', '=', id)
    .where('version', '=', version)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

export const updateLicenseFields = (trx: Db, id: string, values: Partial<Omit<LicenseRecord, 'id' | 'version' | 'created_at'>>) =>
  trx.updateTable('licenses').set(values).where('id', '=', id).execute();

/** The version step of a PATCH without `version`: bumps whatever is stored. false: no such license. */
export async function bumpAnyVersion(trx: Db, id: string): Promise<boolean> {
  const result = await trx
    .updateTable('licenses')
    .set((eb) => ({ version: eb('version', '+', 1) }))
    .where('id', '=', id)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** The stored row (a PATCH merges into it; read after its version step, which locks the row). */
export const licenseRow = (db: Db, id: string) => db.selectFrom('licenses').selectAll().where('id', '=', id).executeTakeFirst();


/** Revokes: the expiry becomes `now` and the one it replaces is kept (read in the same statement, so a racing PUT cannot slip between). Undefined: not found or already revoked. */
export const revoke = (trx: Db, id: string, now: number, reason: string | null) =>
  trx
    .updateTable('licenses')
    .set((eb) => ({
      revoked_previous_expires_at: eb.ref('expires_at'),
      expires_at: now,
      expiry_set_at: now,
      revoked_at: now,
      revoked_reason: reason,
      version: eb('version', '+', 1),
    }))
    .where('id', '=', id)
    .where('revoked_at', 'is', null)
    .returning('revoked_previous_expires_at')
    .executeTakeFirst();

/** Puts the replaced expiry back. Undefined: not found or not revoked. */
export const reinstate = (trx: Db, id: string, now = clock.now()) =>
  trx
    .updateTable('licenses')
    .set((eb) => ({
      expires_at: eb.ref('revoked_previous_expires_at'),
      expiry_set_at: now,
      revoked_at: null,
      revoked_reason: null,
      revoked_previous_expires_at: null,
      version: eb('version', '+', 1),
    }))
    .where('id', '=', id)
    .where('revoked_at', 'is not', null)
    .returning('expires_at')
    .executeTakeFirst();

export async function storedVersion(db: Db, id: string): Promise<number | undefined> {
  const row = await db.selectFrom('licenses').select('version').where('id', '=', id).executeTakeFirst();
  return row?.version;
}

/** The customer's licenses of the product that are not revoked, oldest first (what the purchase rule chooses from). */
export const heldLicenseRows = (db: Db, customerId: string, productId: string) =>
  db
    .selectFrom('licenses')
    .selectAll()
    .where('customer_id', '=', customerId)
    .where('product_id', '=', productId)
    .where('revoked_at', 'is', null)
    .orderBy('created_at')
    .orderBy('id')
    .execute();

/** Sets the columns a sale changes and bumps the version. */
export const updateSaleFields = (trx: Db, id: string, values: Partial<Omit<LicenseRecord, 'id' | 'version' | 'created_at'>>) =>
  trx
    .updateTable('licenses')
    .set((eb) => ({ ...values, version: eb('version', '+', 1) }))
    .where('id', '=', id)
    .execute();

/** Locks the license row for a change that reads it first (a renewal): concurrent ones queue, on any instance. */
export async function lockLicense(trx: Db, id: string): Promise<LicenseRecord | undefined> {
  return trx.selectFrom('licenses').selectAll().where('id', '=', id).$call(lockRows(trx, 'noKeyUpdate')).executeTakeFirst();
}

/**
 * Locks the license row for its delete (PostgreSQL FOR UPDATE; SQLite's write lock already
 * excludes every other writer). Waits for the validations recording an attempt of it (they
 * hold its key-share lock until they commit); those that come later find it gone.
 */
export async function lockLicenseForDelete(trx: Db, id: string): Promise<void> {
  await trx.selectFrom('licenses').select('id').where('id', '=', id).$call(lockRows(trx, 'update')).execute();
}

/**
 * Deletes the license (locked by lockLicenseForDelete) and its attempts, which no foreign
 * key removes on PostgreSQL; bindings and order links go with it (ON DELETE CASCADE).
 */
export async function deleteLicense(trx: Db, id: string): Promise<boolean> {
  await trx.deleteFrom('validation_attempts').where('license_id', '=', id).execute();
  const result = await trx.deleteFrom('licenses').where('id', '=', id).executeTakeFirst();
  return result.numDeletedRows > 0n;
}

/** Rows per INSERT: stays under SQLite's and PostgreSQL's bound-parameter limits. */
const CHUNK = 500;

async function insertChunked<T extends 'license_ips' | 'license_hwids' | 'validation_attempts'>(
  trx: Db,
  table: T,
  rows: readonly object[],
): Promise<void> {
  for (let i = 0; i < rows.length; i += CHUNK) {
    await trx
      .insertInto(table)
      .values(rows.slice(i, i + CHUNK) as never)
      .execute();
  }
}

/** A bound value with its times, as PUT writes it. */
export interface BoundValue {
  value: string;
  firstSeenAt: number;
  lastSeenAt: number;
}

/** The license's bound IPs (or HWIDs) with their times, keyed by value. */
export async function boundValues(trx: Db, kind: 'ip' | 'hwid', licenseId: string): Promise<Map<string, BoundValue>> {
  const rows =
    kind === 'ip'
      ? await trx.selectFrom('license_ips').select(['ip as value', 'first_seen_at', 'last_seen_at']).where('license_id', '=', licenseId).execute()
      : await trx.selectFrom('license_hwids').select(['hwid as value', 'first_seen_at', 'last_seen_at']).where('license_id', '=', licenseId).execute();
  return new Map(rows.map((r) => [r.value, { value: r.value, firstSeenAt: r.first_seen_at, lastSeenAt: r.last_seen_at }]));
}

/** Replaces the license's bound IPs (or HWIDs) with `values`, in order. */
export async function replaceBindings(trx: Db, kind: 'ip' | 'hwid', licenseId: string, values: readonly BoundValue[]): Promise<void> {
  const common = (v: BoundValue, position: number) => ({ license_id: licenseId, position, first_seen_at: v.firstSeenAt, last_seen_at: v.lastSeenAt });
  if (kind === 'ip') {
    await trx.deleteFrom('license_ips').where('license_id', '=', licenseId).execute();
    await insertChunked(trx, 'license_ips', values.map((v, i) => ({ ...common(v, i), ip: v.value })));
  } else {
    await trx.deleteFrom('license_hwids').where('license_id', '=', licenseId).execute();
    await insertChunked(trx, 'license_hwids', values.map((v, i) => ({ ...common(v, i), hwid: v.value })));
  }
}

export async function replaceAttempts(trx: Db, licenseId: string, rows: readonly NewValidationAttempt[]): Promise<void> {
  await trx.deleteFrom('validation_attempts').where('license_id', '=', licenseId).execute();
  await insertChunked(trx, 'validation_attempts', rows);
}
