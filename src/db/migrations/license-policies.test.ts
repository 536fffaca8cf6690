// Migration 0200 (license policies): existing products and licenses keep the seed's
// behaviour (basis fixed, nothing else set), a license already expired at the upgrade is
// never announced as `licenses.expired`, and the down migration removes it all.
import type { Kysely } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { insertTwoLicenses, migrateTo } from '../../../test/helpers/migrations.js';
import { createTestDatabase, DIALECTS, type TestDatabase } from '../../../test/helpers/test-app.js';
import { createDb } from '../database.js';

const BEFORE = '2026_11_29_0100_privilege_boundaries';
const AFTER = '2026_11_29_0200_license_policies';

describe.each(DIALECTS)('migration to license policies (%s)', (dialect) => {
  let database: TestDatabase;
  let db: Kysely<any>;
  afterEach(async () => {
    await db.destroy();
    await database.drop();
  });

  it('gives existing rows the defaults, counts their expiry as set at the upgrade, and goes down cleanly', async () => {
    database = await createTestDatabase(dialect);
    db = createDb(database.url).db;
    await migrateTo(db, BEFORE);
    const now = Date.now();
    await insertTwoLicenses(db, now);
    await db.updateTable('licenses').set({ expires_at: now - 1000 }).where('id', '=', 'L1').execute();
    await migrateTo(db, AFTER);
    const product = await db.selectFrom('products').selectAll().executeTakeFirstOrThrow();
    expect(product).toMatchObject({ expiry_basis: 'fixed', valid_for_days: null, grace_days: null, features: null, reveal_reasons: 0 });
    const licenses = await db.selectFrom('licenses').selectAll().orderBy('id').execute();
    for (const l of licenses) {
      expect(l).toMatchObject({ expiry_basis: 'fixed', valid_for_days: null, grace_days: null, features: null, reveal_reasons: null, expiry_started_at: null });
      expect(Number(l.expiry_set_at)).toBeGreaterThanOrEqual(now);
    }
    // L1 expired before the upgrade: its expiry is not one the clock passed afterwards
    expect(Number(licenses[0]!.expires_at)).toBeLessThan(Number(licenses[0]!.expiry_set_at));
    await migrateTo(db, BEFORE);
    const columns = Object.keys((await db.selectFrom('licenses').selectAll().executeTakeFirstOrThrow()) as object);
    expect(columns).not.toContain('expiry_basis');
    expect(columns).not.toContain('expiry_set_at');
  });
});
