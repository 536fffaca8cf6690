// License records: issue, read, replace (optimistic concurrency) and delete. Every
// mutation writes its audit entry in the caller's transaction.
import type { Db } from '../../db/database.js';
import { isForeignKeyViolation } from '../../db/storage/errors.js';
import { forEachBatch, isPaged, listKeyOf } from '../../db/list-queries.js';
import type { LicenseRecord, NewValidationAttempt } from '../../db/schema.js';
import { badRequest, conflict, notFound } from '../../http/errors.js';
import type { Listed } from '../../http/list-response.js';
import type { ListWriter } from '../../http/list-stream.js';
import { MAX_PAGE_SIZE } from '../../http/schemas.js';
import { newId, newLicenseKey } from '../../lib/ids.js';
import { recordAudit } from '../audit/audit.service.js';
import { findCustomer } from '../customers/customers.repository.js';
import { findProduct, findTier } from '../products/products.repository.js';
import type { ProductTierRow } from '../../db/schema.js';
import { LICENSE_STATUSES, licenseStatus, type LicenseStatus } from '../license-settings/license-terms.js';
import * as repo from './licenses.repository.js';
import {
  SUCCESS_REASONS,
  type AttemptInput,
  type Binding,
  type CreateLicenseBody,
  type License,
  type ListLicensesQuery,
  type PatchLicenseBody,
  type Reason,
  type UpdateLicenseBody,
  type ValidationAttempt,
} from './licenses.schemas.js';
import { DAY_MS } from '../../lib/time.js';
import { clockStartAfterWrite } from './expiry-clock.js';
import type { ExpiryBasis } from '../license-settings/license-settings.bounds.js';
import {
  SELF_RELEASE_WINDOW_MS,
  assertExpiryPolicy,
  copiedSettings,
  effectiveFeatures,
  parseFeatures,
  parseSharingAlert,
  sharingAlertColumn,
  storeFeatures,
  storeFlag,
  updatesUntilAtCreation,
} from '../license-settings/license-settings.js';
import { clock } from '../../lib/clock.js';

type Children = { ips: Binding[]; hwids: Binding[]; attempts: ValidationAttempt[] };

const noChildren = (): Children => ({ ips: [], hwids: [], attempts: [] });

const binding = (value: string, row: { first_seen_at: number; last_seen_at: number }): Binding => ({
  value,
  firstSeenAtEpochMillis: row.first_seen_at,
  lastSeenAtEpochMillis: row.last_seen_at,
});

function toLicense(
  row: LicenseRecord,
  children: Children,
  selfReleasesUsed: number,
  productFeatures: string | null,
  tierFeatures: string | null,
  now = clock.now(),
): License {
  const limit = row.self_release_limit;
  return {
    id: row.id,
    productId: row.product_id,
    customerId: row.customer_id,
    expiresAtEpochMillis: row.expires_at,
    maxIps: row.max_ips,
    maxHwids: row.max_hwids,
    usedIps: children.ips.map((b) => b.value),
    usedHwids: children.hwids.map((b) => b.value),
    revokedAtEpochMillis: row.revoked_at,
    revokedReason: row.revoked_reason,
    expiryBasis: row.expiry_basis as ExpiryBasis,
    validForDays: row.valid_for_days,
    expiryStartedAtEpochMillis: row.expiry_started_at,
    graceDays: row.grace_days,
    updatesUntilEpochMillis: row.updates_until,
    features: parseFeatures(row.features),
    effectiveFeatures: effectiveFeatures(productFeatures, row.features, tierFeatures),
    tier: row.tier,
    trial: row.trial === 1,
    status: licenseStatus(row, now),
    revealReasons: row.reveal_reasons === null ? null : row.reveal_reasons === 1,
    slotTimeoutMinutes: row.slot_timeout_minutes,
    selfReleaseLimit: limit,
    sharingAlert: parseSharingAlert(row.sharing_alert),
    sharingSuspectedAtEpochMillis: row.sharing_suspected_at,
    bindings: { ips: children.ips, hwids: children.hwids },
    selfReleasesUsed,
    selfReleasesLeft: limit === null ? null : Math.max(0, limit - selfReleasesUsed),
    version: row.version,
    validationAttempts: children.attempts,
    createdAtEpochMillis: row.created_at,
  };
}

/**
 * Loads the selected licenses (with their self-release counts) with their bound lists and
 * attempts: four queries in all (three without `withHistory`, whose attempts are then empty). `historyMax` > 0 shows
 * only that many most recent attempts: validation prunes in chunks, so a few more may be
 * stored for a moment (validation.history.ts).
 */
async function loadLicenses(db: Db, filter: repo.LicenseFilter, historyMax: number, withHistory = true): Promise<License[]> {
  const rows = await repo.findLicenseRows(db, filter, clock.now() - SELF_RELEASE_WINDOW_MS);
  if (rows.length === 0) return [];
  const [ips, hwids, attempts] = await Promise.all([
    repo.ipRowsOf(db, filter),
    repo.hwidRowsOf(db, filter),
    withHistory ? repo.attemptRowsOf(db, filter) : [],
  ]);
  return assembleLicenses(rows, ips, hwids, attempts, historyMax);
}

type BindingRow = { license_id: string; first_seen_at: number; last_seen_at: number };
type AttemptRow = { license_id: string; hwid: string; ip: string; timestamp: number; successful: number; reason: string };

/** The licenses as the API answers them, from their rows and their children's rows (in the list's order). */
export function assembleLicenses(
  rows: readonly repo.LicenseRow[],
  ips: readonly (BindingRow & { ip: string })[],
  hwids: readonly (BindingRow & { hwid: string })[],
  attempts: readonly AttemptRow[],
  historyMax: number,
): License[] {
  const now = clock.now();
  const byId = new Map<string, Children>(rows.map((r) => [r.id, noChildren()]));
  for (const r of ips) byId.get(r.license_id)?.ips.push(binding(r.ip, r));
  for (const r of hwids) byId.get(r.license_id)?.hwids.push(binding(r.hwid, r));
  for (const r of attempts) {
    byId.get(r.license_id)?.attempts.push({
      hwid: r.hwid,
      ip: r.ip,
      timestampEpochMillis: r.timestamp,
      successful: r.successful === 1,
      reason: r.reason as Reason,
    });
  }
  return rows.map((row) => {
    const children = byId.get(row.id)!;
    if (historyMax > 0 && children.attempts.length > historyMax) children.attempts = children.attempts.slice(-historyMax);
    return toLicense(row, children, row.self_releases_used, row.product_features, row.tier_features, now);
  });
}

export async function getLicense(db: Db, id: string, historyMax = 0): Promise<License> {
  const [license] = await loadLicenses(db, { id }, historyMax);
  if (!license) throw notFound('License not found');
  return license;
}

/** `status=active,grace`: each a known status (400 naming the list otherwise). */
function parseStatuses(text: string): LicenseStatus[] {
  const statuses = text.split(',').map((s) => s.trim());
  if (statuses.some((s) => !(LICENSE_STATUSES as readonly string[]).includes(s))) {
    throw badRequest(`status must be one of: ${LICENSE_STATUSES.join(', ')} (comma-separated)`);
  }
  return statuses as LicenseStatus[];
}

/** The repository filter a license query asks for (named fields only: a query string may carry anything). */
function licenseFilter(query: ListLicensesQuery, now: number): repo.LicenseFilter {
  const { customerId, productId, key, status, trial, sharing, sort, order, offset, limit } = query;
  return {
    sharingSuspected: sharing === 'suspected' ? true : undefined,
    customerId,
    productId,
    keyContains: key,
    statuses: status === undefined ? undefined : parseStatuses(status),
    statusAt: now,
    trial,
    sort,
    order,
    offset,
    limit: limit === undefined ? undefined : Math.min(limit, MAX_PAGE_SIZE),
  };
}

export async function listLicenses(db: Db, query: ListLicensesQuery, historyMax = 0): Promise<Listed<License>> {
  const filter = licenseFilter(query, clock.now());
  const records = await loadLicenses(db, filter, historyMax);
  const total = isPaged(filter) ? await repo.countLicenses(db, filter) : records.length;
  return { records, total };
}

/**
 * Every license matching the filters, written to `writer` in keyset batches, each loaded
 * with its children in four queries (call inside one snapshot: the batches then agree).
 */
export async function streamLicenses(db: Db, query: ListLicensesQuery, historyMax: number, writer: ListWriter<License>): Promise<void> {
  const { limit: _limit, offset: _offset, ...filter } = licenseFilter(query, clock.now());
  writer.start(await repo.countLicenses(db, filter));
  await forEachBatch(
    (page) => loadLicenses(db, { ...filter, ...page }, historyMax),
    listKeyOf(repo.LICENSE_SORT, filter),
    (records) => writer.write(records),
  );
}

/**
 * The audit snapshot: the license as the API shows it, except that the attempt history
 * (up to VALIDATION_HISTORY_MAX entries) is replaced by its length to keep entries small.
 */
function auditSnapshot(license: License): Omit<License, 'validationAttempts'> & { validationAttemptCount: number } {
  const { validationAttempts, ...rest } = license;
  return { ...rest, validationAttemptCount: validationAttempts.length };
}

/** A license to create: POST /licenses' body (omitted limits: the product's default; null: unlimited). */
export type NewLicense = CreateLicenseBody;

/**
 * Inserts a license (version 1, nothing bound) without writing an audit entry: for
 * callers that record their own event, such as the marketplace webhook.
 * Throws 400 for an unknown product or customer.
 */
export async function insertLicense(trx: Db, input: NewLicense): Promise<License> {
  const product = await findProduct(trx, input.productId);
  if (!product) throw badRequest(`Unknown productId: ${input.productId}`);
  if (!(await findCustomer(trx, input.customerId))) throw badRequest(`Unknown customerId: ${input.customerId}`);
  const tier = await tierOf(trx, input.productId, input.tier);
  const now = clock.now();
  // The copied settings are the body's or the product's; the live ones only the body's (null: the product's, at use).
  const copied = copiedSettings(input, product);
  const expiresAt =
    input.expiresAtEpochMillis !== undefined
      ? input.expiresAtEpochMillis
      : copied.expiry_basis === 'creation'
        ? now + copied.valid_for_days! * DAY_MS
        : null;
  const row: LicenseRecord = {
    id: newLicenseKey(),
    product_id: input.productId,
    customer_id: input.customerId,
    expires_at: expiresAt,
    ...copied,
    revoked_at: null,
    revoked_reason: null,
    revoked_previous_expires_at: null,
    sharing_alert: sharingAlertColumn(input.sharingAlert),
    sharing_suspected_at: null,
    features: storeFeatures(input.features),
    reveal_reasons: storeFlag(input.revealReasons),
    expiry_started_at: clockStartAfterWrite(copied.expiry_basis, expiresAt, null, now),
    expiry_set_at: now,
    tier: tier?.code ?? null,
    trial: input.trial ? 1 : 0,
    updates_until: updatesUntilAtCreation(input.updatesUntilEpochMillis, product, now),
    version: 1,
    created_at: now,
  };
  await withReferenceCheck(() => repo.insertLicense(trx, row));
  return toLicense(row, noChildren(), 0, product.features, tier?.features ?? null, now);
}

/** Issues a license and records `licenses.create` by `actor` (a username) in `trx`. */
export async function createLicense(trx: Db, actor: string, input: NewLicense): Promise<License> {
  const license = await insertLicense(trx, input);
  await recordAudit(trx, actor, 'licenses.create', auditSnapshot(license));
  return license;
}

export type LicenseWithoutHistory = Omit<License, 'validationAttempts'>;

export function withoutHistory({ validationAttempts, ...license }: License): LicenseWithoutHistory {
  return license;
}

/**
 * The customer's oldest license for the product that has not expired at `now`, if any,
 * without its attempt history (a busy license's 1000 attempts are not read for nothing).
 */
export async function findActiveLicense(
  db: Db,
  customerId: string,
  productId: string,
  now = clock.now(),
): Promise<LicenseWithoutHistory | undefined> {
  const [license] = await loadLicenses(db, { customerId, productId, activeAt: now, sort: 'createdAt', order: 'asc', limit: 1 }, 0, false);
  return license && withoutHistory(license);
}

/** Ids of the customer's licenses for the product that have not expired at `now`, oldest first. */
export async function activeLicenseIds(db: Db, customerId: string, productId: string, now = clock.now()): Promise<string[]> {
  const rows = await repo.findLicenseRows(db, { customerId, productId, activeAt: now, sort: 'createdAt', order: 'asc' }, now);
  return rows.map((row) => row.id);
}

const unique = (values: readonly string[] = []) => [...new Set(values)];

function attemptRows(licenseId: string, attempts: readonly AttemptInput[], historyMax: number): NewValidationAttempt[] {
  attempts.forEach((a, i) => {
    if (a.reason !== undefined && SUCCESS_REASONS.includes(a.reason) !== a.successful) {
      throw badRequest(`validationAttempts.${i}.reason ${a.reason} contradicts successful: ${a.successful}`);
    }
  });
  // Oldest first (stable, so equal timestamps keep the body's order), then keep the newest.
  const sorted = attempts.map((a, i) => ({ a, i })).sort((x, y) => x.a.timestampEpochMillis - y.a.timestampEpochMillis || x.i - y.i);
  const kept = historyMax > 0 ? sorted.slice(-historyMax) : sorted;
  // Inserted in this order: the database's ids break ties between equal timestamps.
  return kept.map(({ a }) => ({
    license_id: licenseId,
    hwid: a.hwid,
    ip: a.ip,
    timestamp: a.timestampEpochMillis,
    successful: a.successful ? 1 : 0,
    reason: a.reason ?? (a.successful ? 'VALID' : 'UNKNOWN'),
  }));
}

/**
 * Replaces the license. The version check and bump is the first statement, one atomic
 * UPDATE … WHERE version = ?: of two racing PUTs with the same version exactly one
 * succeeds. Checks answer in the order 404, 400 (unknown references), 409.
 */
export async function updateLicense(
  trx: Db,
  actor: string,
  id: string,
  body: UpdateLicenseBody,
  historyMax: number,
): Promise<License> {
  const bumped = await repo.bumpVersion(trx, id, body.version);
  if (!bumped) {
    const stored = await repo.storedVersion(trx, id);
    if (stored === undefined) throw notFound('License not found');
    await assertReferencesExist(trx, body);
    throw conflict(`Version conflict: expected ${stored}, got ${body.version}`);
  }
  await assertReferencesExist(trx, body);
  await tierOf(trx, body.productId, body.tier);
  const now = clock.now();
  const basis = body.expiryBasis ?? 'fixed';
  const validForDays = body.validForDays ?? null;
  assertExpiryPolicy(basis, validForDays);
  const expiresAt = body.expiresAtEpochMillis ?? null;
  const previous = await repo.licenseRow(trx, id);
  await withReferenceCheck(() => repo.updateLicenseFields(trx, id, {
    product_id: body.productId,
    customer_id: body.customerId,
    expires_at: expiresAt,
    max_ips: body.maxIps ?? null,
    max_hwids: body.maxHwids ?? null,
    slot_timeout_minutes: body.slotTimeoutMinutes ?? null,
    self_release_limit: body.selfReleaseLimit ?? null,
    sharing_alert: sharingAlertColumn(body.sharingAlert),
    // A PUT replaces the policy settings too: omitted ones become null (features {}).
    expiry_basis: basis,
    valid_for_days: validForDays,
    grace_days: body.graceDays ?? null,
    features: storeFeatures(body.features),
    reveal_reasons: storeFlag(body.revealReasons),
    tier: body.tier ?? null,
    trial: body.trial ? 1 : 0,
    expiry_started_at: clockStartAfterWrite(basis, expiresAt, previous?.expiry_started_at ?? null, now),
    expiry_set_at: now,
    updates_until: body.updatesUntilEpochMillis ?? null,
    // A PUT states the whole license: it is no longer revoked (its expiry is what it says).
    revoked_at: null,
    revoked_reason: null,
    revoked_previous_expires_at: null,
  }));
  await replaceBindings(trx, 'ip', id, unique(body.usedIps), now);
  await replaceBindings(trx, 'hwid', id, unique(body.usedHwids), now);
  await repo.replaceAttempts(trx, id, attemptRows(id, body.validationAttempts ?? [], historyMax));
  const license = await getLicense(trx, id, historyMax);
  await recordAudit(trx, actor, 'licenses.update', auditSnapshot(license));
  return license;
}

/**
 * Sets the fields given and keeps the others (DECISIONS.md "License policies"): bound lists
 * and history change only when given; `version`, when given, must match (409). Setting
 * `expiresAtEpochMillis` ends a revocation, as a PUT does. Audited and versioned like PUT.
 */
export async function patchLicense(trx: Db, actor: string, id: string, body: PatchLicenseBody, historyMax: number): Promise<License> {
  const bumped = body.version === undefined ? await repo.bumpAnyVersion(trx, id) : await repo.bumpVersion(trx, id, body.version);
  if (!bumped) {
    const stored = await repo.storedVersion(trx, id);
    if (stored === undefined) throw notFound('License not found');
    throw conflict(`Version conflict: expected ${stored}, got ${body.version}`);
  }
  const row = (await repo.licenseRow(trx, id))!;
  if (body.productId !== undefined || body.customerId !== undefined) {
    await assertReferencesExist(trx, { productId: body.productId ?? row.product_id, customerId: body.customerId ?? row.customer_id });
  }
  const now = clock.now();
  const values: Parameters<typeof repo.updateLicenseFields>[2] = {};
  if (body.productId !== undefined) values.product_id = body.productId;
  if (body.customerId !== undefined) values.customer_id = body.customerId;
  if (body.maxIps !== undefined) values.max_ips = body.maxIps;
  if (body.maxHwids !== undefined) values.max_hwids = body.maxHwids;
  if (body.slotTimeoutMinutes !== undefined) values.slot_timeout_minutes = body.slotTimeoutMinutes;
  if (body.selfReleaseLimit !== undefined) values.self_release_limit = body.selfReleaseLimit;
  if (body.graceDays !== undefined) values.grace_days = body.graceDays;
  if (body.updatesUntilEpochMillis !== undefined) values.updates_until = body.updatesUntilEpochMillis;
  if (body.features !== undefined) values.features = storeFeatures(body.features);
  if (body.revealReasons !== undefined) values.reveal_reasons = storeFlag(body.revealReasons);
  if (body.sharingAlert !== undefined) values.sharing_alert = sharingAlertColumn(body.sharingAlert);
  if (body.trial !== undefined) values.trial = body.trial ? 1 : 0;
  if (body.tier !== undefined || (body.productId !== undefined && row.tier !== null)) {
    // A tier belongs to its product: moved to another product, the license keeps its tier only if that product has it.
    const tier = body.tier !== undefined ? body.tier : row.tier;
    await tierOf(trx, body.productId ?? row.product_id, tier);
    values.tier = tier;
  }
  const basis = body.expiryBasis ?? row.expiry_basis;
  const validForDays = body.validForDays !== undefined ? body.validForDays : row.valid_for_days;
  if (body.expiryBasis !== undefined || body.validForDays !== undefined) {
    assertExpiryPolicy(basis as ExpiryBasis, validForDays);
    values.expiry_basis = basis;
    values.valid_for_days = validForDays;
  }
  let expiresAt = row.expires_at;
  if (body.expiresAtEpochMillis !== undefined) {
    expiresAt = body.expiresAtEpochMillis;
    Object.assign(values, { expires_at: expiresAt, expiry_set_at: now, revoked_at: null, revoked_reason: null, revoked_previous_expires_at: null });
  }
  if (body.expiresAtEpochMillis !== undefined || body.expiryBasis !== undefined) {
    values.expiry_started_at = clockStartAfterWrite(basis, expiresAt, row.expiry_started_at, now);
  }
  if (Object.keys(values).length > 0) await withReferenceCheck(() => repo.updateLicenseFields(trx, id, values));
  if (body.usedIps !== undefined) await replaceBindings(trx, 'ip', id, unique(body.usedIps), now);
  if (body.usedHwids !== undefined) await replaceBindings(trx, 'hwid', id, unique(body.usedHwids), now);
  if (body.validationAttempts !== undefined) await repo.replaceAttempts(trx, id, attemptRows(id, body.validationAttempts, historyMax));
  const license = await getLicense(trx, id, historyMax);
  await recordAudit(trx, actor, 'licenses.update', auditSnapshot(license));
  return license;
}

/** The license without its history (a snapshot for events): three queries, no attempts read. */
export async function getLicenseWithoutHistory(db: Db, id: string): Promise<LicenseWithoutHistory> {
  const [license] = await loadLicenses(db, { id }, 0, false);
  if (!license) throw notFound('License not found');
  return withoutHistory(license);
}

/** A value the PUT keeps keeps its times; one it adds is first and last seen now. */
async function replaceBindings(trx: Db, kind: 'ip' | 'hwid', id: string, values: string[], now: number): Promise<void> {
  const stored = await repo.boundValues(trx, kind, id);
  const rows = values.map((value) => stored.get(value) ?? { value, firstSeenAt: now, lastSeenAt: now });
  await repo.replaceBindings(trx, kind, id, rows);
}

/** The product's tier named `code` (undefined for null or omitted); 400 for a code the product has no tier of. */
async function tierOf(db: Db, productId: string, code: string | null | undefined): Promise<ProductTierRow | undefined> {
  if (code === null || code === undefined) return undefined;
  const tier = await findTier(db, productId, code);
  if (!tier) throw badRequest(`tier ${code} is not a tier of product ${productId}`);
  return tier;
}

async function assertReferencesExist(db: Db, body: { productId: string; customerId: string }): Promise<void> {
  if (!(await findProduct(db, body.productId))) throw badRequest(`Unknown productId: ${body.productId}`);
  if (!(await findCustomer(db, body.customerId))) throw badRequest(`Unknown customerId: ${body.customerId}`);
}

/** A product or customer deleted between the check above and the write is still a 400. */
async function withReferenceCheck(write: () => Promise<unknown>): Promise<void> {
  try {
    await write();
  } catch (err) {
    if (isForeignKeyViolation(err)) throw badRequest('Unknown productId or customerId: a referenced record was just deleted');
    throw err;
  }
}

export async function deleteLicense(trx: Db, actor: string, id: string, historyMax = 0): Promise<void> {
  // Locked first, so every attempt a validation in flight records is committed, and seen
  // by the delete below, before the license goes (docs/decisions.md, "PostgreSQL validations at half of bare").
  await repo.lockLicenseForDelete(trx, id);
  const license = await getLicense(trx, id, historyMax);
  await repo.deleteLicense(trx, id);
  await recordAudit(trx, actor, 'licenses.delete', auditSnapshot(license));
}

/**
 * Revokes the license (DECISIONS.md "Revoking a license"): expired from now, the replaced
 * expiry kept for a reinstatement, version + 1, audited. Validation needs nothing new.
 * `auditTag` joins the entry's data (a marketplace refund says where it came from).
 */
export async function revokeLicense(
  trx: Db,
  actor: string,
  id: string,
  reason: string | null,
  historyMax: number,
  auditTag: object = {},
): Promise<License> {
  const revoked = await repo.revoke(trx, id, clock.now(), reason);
  if (!revoked) {
    if ((await repo.storedVersion(trx, id)) === undefined) throw notFound('License not found');
    throw conflict('License is already revoked');
  }
  const previous = revoked.revoked_previous_expires_at;
  await recordAudit(trx, actor, 'licenses.revoke', {
    licenseId: id,
    reason,
    previousExpiresAtEpochMillis: previous,
    ...auditTag,
  });
  return getLicense(trx, id, historyMax);
}

/** Puts back the expiry a revocation replaced, version + 1, audited. */
export async function reinstateLicense(trx: Db, actor: string, id: string, historyMax: number): Promise<License> {
  const reinstated = await repo.reinstate(trx, id);
  if (!reinstated) {
    if ((await repo.storedVersion(trx, id)) === undefined) throw notFound('License not found');
    throw conflict('License is not revoked');
  }
  const expires = reinstated.expires_at;
  await recordAudit(trx, actor, 'licenses.reinstate', { licenseId: id, expiresAtEpochMillis: expires });
  return getLicense(trx, id, historyMax);
}
