// The blocklist's rules as staff manage them: checks, normalisation, the audit entry and the
// version bump of every change, in the change's transaction (the caller then reloads this
// instance's index, blocklist.cache.ts; other instances see the version within a second).
import type { Db } from '../../db/database.js';
import { canonicalIp } from '../../lib/ip-address.js';
import { isPaged } from '../../db/list-queries.js';
import type { BlocklistRulesTable } from '../../db/schema.js';
import { isUniqueViolation } from '../../db/storage/errors.js';
import { badRequest, conflict, notFound } from '../../http/errors.js';
import type { Listed } from '../../http/list-response.js';
import { MAX_PAGE_SIZE } from '../../http/schemas.js';
import { newId } from '../../lib/ids.js';
import { recordAudit } from '../audit/audit.service.js';
import * as repo from './blocklist.repository.js';
import { PATCHABLE_FIELDS, type BlocklistRule, type CreateRuleBody, type PatchRuleBody, type RuleQuery } from './blocklist.schemas.js';
import { normalizeCidrValue } from './ip-values.js';
import type { RuleMode, RuleType } from './rule-index.js';
import { clock } from '../../lib/clock.js';

export const toRule = (row: BlocklistRulesTable): BlocklistRule => ({
  id: row.id,
  type: row.type as RuleType,
  value: row.value,
  scope: row.license_id !== null ? 'license' : row.product_id !== null ? 'product' : 'everything',
  productId: row.product_id,
  licenseId: row.license_id,
  mode: row.mode as RuleMode,
  expiresAtEpochMillis: row.expires_at,
  note: row.note,
  hits: row.hits,
  lastHitAtEpochMillis: row.last_hit_at,
  createdAtEpochMillis: row.created_at,
  createdBy: row.created_by,
  updatedAtEpochMillis: row.updated_at,
});

/** The value as stored and matched, or a 400 naming `value`. */
export function normalizeRuleValue(type: RuleType, value: string): string {
  if (type === 'hwid') {
    if (value.trim() === '') throw badRequest('value must not be blank');
    return value; // matched exactly as a validation presents it
  }
  const normalized = type === 'ip' ? canonicalIp(value.trim()) : normalizeCidrValue(value);
  if (normalized === null) {
    throw badRequest(
      type === 'ip'
        ? 'value is not an IP address (IPv4 such as 203.0.113.7 or IPv6 such as 2001:db8::7)'
        : 'value is not a CIDR (an address, "/" and a prefix length: 0-32 for IPv4, 0-128 for IPv6, e.g. 10.0.0.0/8)',
    );
  }
  return normalized;
}

function checkExpiry(expiresAt: number | null | undefined, now: number): void {
  if (expiresAt !== undefined && expiresAt !== null && expiresAt <= now) throw badRequest('expiresAtEpochMillis must lie in the future');
}

export async function createRule(trx: Db, actor: string, body: CreateRuleBody, now = clock.now()): Promise<BlocklistRule> {
  const value = normalizeRuleValue(body.type, body.value);
  const productId = body.productId ?? null;
  const licenseId = body.licenseId ?? null;
  if (productId !== null && licenseId !== null) throw badRequest('licenseId and productId cannot both be given: a rule has one scope');
  checkExpiry(body.expiresAtEpochMillis, now);
  if (productId !== null && !(await repo.productExists(trx, productId))) throw badRequest(`Unknown productId: ${productId}`);
  if (licenseId !== null && !(await repo.licenseExists(trx, licenseId))) throw badRequest(`Unknown licenseId: ${licenseId}`);
  const row: BlocklistRulesTable = {
    id: newId(),
    type: body.type,
    value,
    scope: licenseId !== null ? `license:${licenseId}` : productId !== null ? `product:${productId}` : '',
    product_id: productId,
    license_id: licenseId,
    mode: body.mode ?? 'block',
    expires_at: body.expiresAtEpochMillis ?? null,
    note: body.note ?? null,
    hits: 0,
    last_hit_at: null,
    last_event_at: null,
    created_at: now,
    created_by: actor,
    updated_at: now,
  };
  try {
    await repo.insertRule(trx, row);
  } catch (err) {
    if (!isUniqueViolation(err)) throw err;
    throw conflict(`A ${body.type} rule for ${value} with this scope already exists`);
  }
  await repo.bumpVersion(trx);
  const rule = toRule(row);
  await recordAudit(trx, actor, 'blocklist.create', rule);
  return rule;
}

export async function getRule(db: Db, id: string): Promise<BlocklistRule> {
  const row = await repo.findRule(db, id);
  if (!row) throw notFound('Blocklist rule not found');
  return toRule(row);
}

/** Names the first field PATCH may not change (the body schema lets unknown fields through to say so). */
export function checkPatchFields(body: object): void {
  const other = Object.keys(body).find((key) => !(PATCHABLE_FIELDS as readonly string[]).includes(key));
  if (other !== undefined) throw badRequest(`${other.slice(0, 100)} cannot be changed: PATCH changes only ${PATCHABLE_FIELDS.join(', ')}`);
}

export async function patchRule(trx: Db, actor: string, id: string, body: PatchRuleBody, now = clock.now()): Promise<BlocklistRule> {
  checkExpiry(body.expiresAtEpochMillis, now);
  const row = await repo.findRule(trx, id);
  if (!row) throw notFound('Blocklist rule not found');
  const values = {
    mode: body.mode ?? row.mode,
    expires_at: body.expiresAtEpochMillis === undefined ? row.expires_at : body.expiresAtEpochMillis,
    note: body.note === undefined ? row.note : body.note,
    updated_at: now,
  };
  await repo.updateRule(trx, id, values);
  await repo.bumpVersion(trx);
  const rule = toRule({ ...row, ...values });
  await recordAudit(trx, actor, 'blocklist.update', rule);
  return rule;
}

export async function deleteRule(trx: Db, actor: string, id: string): Promise<void> {
  const row = await repo.findRule(trx, id);
  if (!row) throw notFound('Blocklist rule not found');
  await repo.deleteRule(trx, id);
  await repo.bumpVersion(trx);
  await recordAudit(trx, actor, 'blocklist.delete', toRule(row));
}

export async function listRules(db: Db, query: RuleQuery, now = clock.now()): Promise<Listed<BlocklistRule>> {
  const filter = { ...query, now, limit: query.limit === undefined ? undefined : Math.min(query.limit, MAX_PAGE_SIZE) };
  const rows = await repo.listRules(db, filter);
  const total = isPaged(filter) ? await repo.countRules(db, filter) : rows.length;
  return { records: rows.map(toRule), total };
}
