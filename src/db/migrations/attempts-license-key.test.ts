// Migration 2026_12_01_0100: on PostgreSQL validation_attempts.license_id loses its
// foreign key (the service keeps attempts and licenses together itself); SQLite keeps it.
// Down puts the key back, dropping attempts whose license is gone.
import type { Kysely } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { insertTwoLicenses, migrateTo } from '../../../test/helpers/migrations.js';
import { createTestDatabase, DIALECTS, type TestDatabase } from '../../../test/helpers/test-app.js';
import { createDb } from '../database.js';

const BEFORE = '2026_11_30_0100_username_skeletons';
const AFTER = '2026_12_01_0100_attempts_license_key_share';

describe.each(DIALECTS)('migration dropping the attempts foreign key on PostgreSQL (%s)', (dialect) => {
  let database: TestDatabase;
  let db: Kysely<any>;
  afterEach(async () => {
    await db.destroy();
    await database.drop();
  });

  const attempt = (license_id: string, timestamp: number) => ({ license_id, hwid: 'h', ip: '10.0.0.1', timestamp, successful: 1, reason: 'VALID' });
  const licensesOfAttempts = async () =>
    (await db.selectFrom('validation_attempts').select('license_id').orderBy('timestamp').execute()).map((r) => r.license_id);
  const insertOrphan = () => db.insertInto('validation_attempts').values(attempt('gone', 3)).execute();

  it('keeps the attempts; only SQLite still refuses an attempt without its license; down restores the key', async () => {
    database = await createTestDatabase(dialect);
    db = createDb(database.url).db;
    await migrateTo(db, BEFORE);
    await insertTwoLicenses(db);
    await db.insertInto('validation_attempts').values([attempt('L1', 1), attempt('L2', 2)]).execute();
    await expect(insertOrphan()).rejects.toThrow();

    await migrateTo(db, AFTER);
    expect(await licensesOfAttempts()).toEqual(['L1', 'L2']);
    if (dialect === 'sqlite') {
      await expect(insertOrphan()).rejects.toThrow();
      return;
    }
    await insertOrphan();
    expect(await licensesOfAttempts()).toEqual(['L1', 'L2', 'gone']);

    await migrateTo(db, BEFORE);
    expect(await licensesOfAttempts()).toEqual(['L1', 'L2']);
    await expect(insertOrphan()).rejects.toThrow();
    await db.deleteFrom('licenses').where('id', '=', 'L1').execute(); // the key cascades again
    expect(await licensesOfAttempts()).toEqual(['L2']);
  });
});
