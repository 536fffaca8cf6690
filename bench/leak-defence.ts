// The leak-defence bench row: 10,000 blocklist rules (IPs, IPv4 and IPv6 networks, HWIDs;
// none matching the bench's own requests) and a sharing alert on the product of the license
// validated. The rules are written straight to the database in one transaction (10,000 API
// calls would each rebuild the index) and the version bumped: the service reloads them as it
// does after a change made on another instance.
import { sql } from 'kysely';
import { createDb } from '../src/db/database.js';
import { newId } from '../src/lib/ids.js';
import { normalizeCidrValue } from '../src/modules/blocklist/ip-values.js';

export const RULE_COUNT = 10_000;

const octet = (i: number, salt: number) => (i * 7919 + salt * 104_729) % 256;

/** Rows of a mix of rule types: 40% IPs, 10% IPv4 CIDRs, 5% IPv6 CIDRs, 45% HWIDs; none covers 127.0.0.0/8. */
function ruleRows(count: number, now: number) {
  return Array.from({ length: count }, (_, i) => {
    const kind = i % 20;
    let type: string;
    let value: string;
    if (kind < 8) {
      type = 'ip';
      value = `10.${octet(i, 1)}.${octet(i, 2)}.${octet(i, 3)}`;
    } else if (kind < 10) {
      type = 'cidr'; // the service stores networks normalised (host bits cleared), as the API would
      value = normalizeCidrValue(`172.${16 + (i % 16)}.${octet(i, 4)}.${octet(i, 5)}/${16 + (i % 15)}`)!;
    } else if (kind < 11) {
      type = 'cidr';
      value = normalizeCidrValue(`2001:db8:${(i % 65_536).toString(16)}::/48`)!;
    } else {
      type = 'hwid';
      value = `LEAKED-HWID-${i}`;
    }
    return {
      id: newId(), type, value, scope: '', product_id: null, license_id: null, mode: i % 3 === 0 ? 'flag' : 'block',
      expires_at: null, note: null, hits: 0, last_hit_at: null, last_event_at: null, created_at: now, created_by: 'bench', updated_at: now,
    };
  });
}

/** Adds the rules (unique values: the same value twice is skipped) and bumps the version every instance polls. */
export async function seedRules(databaseUrl: string, count = RULE_COUNT): Promise<void> {
  const { db } = createDb(databaseUrl);
  try {
    const rows = ruleRows(count, Date.now());
    const unique = [...new Map(rows.map((r) => [`${r.type} ${r.value}`, r])).values()];
    await db.transaction().execute(async (trx) => {
      for (let i = 0; i < unique.length; i += 500) await trx.insertInto('blocklist_rules').values(unique.slice(i, i + 500)).execute();
      await trx.updateTable('blocklist_version').set({ version: sql`version + 1` }).where('id', '=', 1).execute();
    });
  } finally {
    await db.destroy();
  }
}

/** Removes every rule again (the rows measured after this one run without them). */
export async function clearRules(databaseUrl: string): Promise<void> {
  const { db } = createDb(databaseUrl);
  try {
    await db.transaction().execute(async (trx) => {
      await trx.deleteFrom('blocklist_rules').execute();
      await trx.updateTable('blocklist_version').set({ version: sql`version + 1` }).where('id', '=', 1).execute();
    });
  } finally {
    await db.destroy();
  }
}
