// Every query of the blocklist: the rules, their version counter and their hit counters.
import { sql } from 'kysely';
import type { Db } from '../../db/database.js';
import { afterKey, containsIgnoringCase, withPage, withSort, type Page, type Sort, type SortColumns } from '../../db/list-queries.js';
import type { BlocklistRulesTable } from '../../db/schema.js';

export interface RuleFilter extends Page, Sort {
  type?: string;
  mode?: string;
  scope?: 'everything' | 'product' | 'license';
  productId?: string;
  licenseId?: string;
  q?: string;
  status?: 'active' | 'expired';
  now: number;
}

export const RULE_SORT: SortColumns = {
  columns: { createdAt: 'created_at', hits: 'hits', lastHitAt: 'last_hit_at', value: 'value', expiresAt: 'expires_at' },
  nullable: ['last_hit_at', 'expires_at'],
  recordFields: { createdAt: 'createdAtEpochMillis', lastHitAt: 'lastHitAtEpochMillis', expiresAt: 'expiresAtEpochMillis' },
};

function matchingRules(db: Db, filter: RuleFilter) {
  let query = db.selectFrom('blocklist_rules');
  if (filter.type !== undefined) query = query.where('type', '=', filter.type);
  if (filter.mode !== undefined) query = query.where('mode', '=', filter.mode);
  if (filter.scope === 'everything') query = query.where('scope', '=', '');
  if (filter.scope === 'product') query = query.where('product_id', 'is not', null);
  if (filter.scope === 'license') query = query.where('license_id', 'is not', null);
  if (filter.productId !== undefined) query = query.where('product_id', '=', filter.productId);
  if (filter.licenseId !== undefined) query = query.where('license_id', '=', filter.licenseId);
  if (filter.q !== undefined) {
    const q = filter.q;
    query = query.where((eb) => eb.or([containsIgnoringCase('value', q), containsIgnoringCase('note', q)]));
  }
  if (filter.status === 'active') query = query.where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', filter.now)]));
  if (filter.status === 'expired') query = query.where('expires_at', '<=', filter.now);
  return query;
}

export const listRules = (db: Db, filter: RuleFilter): Promise<BlocklistRulesTable[]> =>
  withPage(withSort(afterKey(matchingRules(db, filter), RULE_SORT, filter).selectAll(), RULE_SORT, filter), filter).execute();

export async function countRules(db: Db, filter: RuleFilter): Promise<number> {
  const row = await matchingRules(db, filter).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  return row.n;
}

export const findRule = (db: Db, id: string) => db.selectFrom('blocklist_rules').selectAll().where('id', '=', id).executeTakeFirst();

export const insertRule = (trx: Db, row: BlocklistRulesTable) => trx.insertInto('blocklist_rules').values(row).execute();

export const updateRule = (trx: Db, id: string, values: Pick<BlocklistRulesTable, 'mode' | 'expires_at' | 'note' | 'updated_at'>) =>
  trx.updateTable('blocklist_rules').set(values).where('id', '=', id).execute();

export const deleteRule = (trx: Db, id: string) => trx.deleteFrom('blocklist_rules').where('id', '=', id).execute();

/** Every instance reloads its index when this number changes: bumped in the transaction of each rule change. */
export const bumpVersion = (trx: Db) =>
  trx.updateTable('blocklist_version').set({ version: sql`version + 1` }).where('id', '=', 1).execute();

export async function readVersion(db: Db): Promise<number> {
  const row = await db.selectFrom('blocklist_version').select('version').where('id', '=', 1).executeTakeFirst();
  return row?.version ?? 0;
}

/** What the in-memory index holds: the rules not yet expired. */
export const rulesInForce = (db: Db, now: number) =>
  db
    .selectFrom('blocklist_rules')
    .select(['id', 'type', 'value', 'mode', 'product_id', 'license_id', 'expires_at'])
    .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', now)]))
    .execute();

export const productExists = async (db: Db, id: string) =>
  (await db.selectFrom('products').select('id').where('id', '=', id).executeTakeFirst()) !== undefined;

export const licenseExists = async (db: Db, id: string) =>
  (await db.selectFrom('licenses').select('id').where('id', '=', id).executeTakeFirst()) !== undefined;

/** Adds hits counted by this instance; the last hit only moves forward. */
export const addHits = (trx: Db, id: string, count: number, lastHitAt: number) =>
  trx
    .updateTable('blocklist_rules')
    .set({
      hits: sql`hits + ${count}`,
      last_hit_at: sql`case when last_hit_at is null or last_hit_at < ${lastHitAt} then ${lastHitAt} else last_hit_at end`,
    })
    .where('id', '=', id)
    .execute();

/**
 * Claims the rule's once-a-minute hit event: the row (with its hits) when no event was
 * queued for it in the last `intervalMs` by any instance, else undefined.
 */
export const claimHitEvent = (trx: Db, id: string, now: number, intervalMs: number) =>
  trx
    .updateTable('blocklist_rules')
    .set({ last_event_at: now })
    .where('id', '=', id)
    .where((eb) => eb.or([eb('last_event_at', 'is', null), eb('last_event_at', '<=', now - intervalMs)]))
    .returningAll()
    .executeTakeFirst();
