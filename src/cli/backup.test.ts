// backup/restore through the real CLI process against a running service: the copy is
// taken while validations keep committing, passes integrity_check and holds every
// attempt acknowledged before the backup started. PostgreSQL is pointed to pg_dump.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../test/helpers/cli.js';
import { newLicense } from '../../test/helpers/fixtures.js';
import { DIALECTS, startTestApp, type TestApp } from '../../test/helpers/test-app.js';
import { until } from '../../test/helpers/until.js';

describe.each(DIALECTS)('cli backup and restore (%s)', (dialect) => {
  let t: TestApp;
  let dir: string;
  const env = () => ({ DATABASE_URL: t.config.databaseUrl });

  beforeAll(async () => {
    // History kept whole: a fast machine records more than the default 1,000 attempts
    // before the backup starts, and pruning would drop acknowledged ones from the check.
    t = await startTestApp(dialect, { VALIDATION_RATE_LIMIT: '1000000', VALIDATION_HISTORY_MAX: '0' });
    dir = mkdtempSync(join(tmpdir(), 'licensing-backup-'));
  });
  afterAll(async () => {
    await t?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  if (dialect === 'postgres') {
    it('points PostgreSQL operators to pg_dump and pg_restore, writing nothing', async () => {
      const backup = await runCli(['backup', join(dir, 'pg.db')], env());
      expect(backup.code).toBe(1);
      expect(backup.stderr).toContain('pg_dump');
      expect(existsSync(join(dir, 'pg.db'))).toBe(false);
      const restore = await runCli(['restore', join(dir, 'pg.db')], env());
      expect(restore.code).toBe(1);
      expect(restore.stderr).toContain('pg_restore');
    });
    return;
  }

  it('copies the running database under validation load: integrity ok, every acknowledged attempt kept', async () => {
    const license = await newLicense(t);
    const acknowledged: { hwid: string; at: number }[] = [];
    let stop = false;
    let sent = 0;
    const worker = async () => {
      while (!stop) {
        const hwid = `hw-${(sent += 1)}`;
        const res = await t.req('POST', '/licenses/validate', { body: { licenseId: license.id, productId: license.productId, hwid } });
        expect(res.status).toBe(200);
        acknowledged.push({ hwid, at: Date.now() });
      }
    };
    const load = Promise.all(Array.from({ length: 8 }, worker));
    await until('200 acknowledged validations', () => acknowledged.length, (n) => n >= 200, { timeoutMs: 30_000 });

    const file = join(dir, 'under-load.db');
    // Everything answered so far was committed before the copy starts: it must be in it.
    // (Counted, not compared by time: an answer in the very millisecond the backup starts
    // is still before it.)
    const answeredBefore = acknowledged.length;
    const startedAt = Date.now();
    const backup = await runCli(['backup', file], env());
    const finishedAt = Date.now();
    const answeredDuringBackup = acknowledged.filter((a) => a.at > startedAt && a.at < finishedAt).length;
    stop = true;
    await load;

    expect(backup.stderr).toBe('');
    expect(backup.code).toBe(0);
    const copy = new SqliteDatabase(file, { readonly: true });
    try {
      expect(copy.pragma('integrity_check', { simple: true })).toBe('ok');
      const hwids = new Set(
        (copy.prepare('SELECT hwid FROM validation_attempts WHERE license_id = ?').all(license.id) as { hwid: string }[]).map((r) => r.hwid),
      );
      const before = acknowledged.slice(0, answeredBefore);
      expect(before.length).toBeGreaterThanOrEqual(200);
      expect(before.filter((a) => !hwids.has(a.hwid))).toEqual([]);
      expect(hwids.size).toBeLessThanOrEqual(acknowledged.length);
    } finally {
      copy.close();
    }
    // Validations were answered while the copy was being taken (not held up by it).
    expect(answeredDuringBackup).toBeGreaterThan(0);
  });

  it('refuses to overwrite an existing file', async () => {
    const file = join(dir, 'twice.db');
    expect((await runCli(['backup', file], env())).code).toBe(0);
    const again = await runCli(['backup', file], env());
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('already exists');
  });

  it('restore refuses while the service has the database open, and restores once it is stopped', async () => {
    const license = await newLicense(t);
    const file = join(dir, 'for-restore.db');
    expect((await runCli(['backup', file], env())).code).toBe(0);
    // A change after the backup: restoring must take it away again.
    const later = await newLicense(t);

    const refused = await runCli(['restore', file], env());
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('in use');

    await t.app.close();
    const restored = await runCli(['restore', file], env());
    expect(restored.stderr).toBe('');
    expect(restored.code).toBe(0);
    t = await startTestApp(dialect, { VALIDATION_RATE_LIMIT: '1000000' }, t.database);
    expect((await t.admin('GET', `/licenses/${license.id}`)).status).toBe(200);
    expect((await t.admin('GET', `/licenses/${later.id}`)).status).toBe(404);
  });

  it('restore rejects a file that is not an intact SQLite database', async () => {
    const broken = join(dir, 'broken.db');
    const { writeFileSync } = await import('node:fs');
    writeFileSync(broken, 'not a database at all'.repeat(100));
    const res = await runCli(['restore', broken], env());
    expect(res.code).toBe(1);
    expect(res.stdout).toBe('');
  });
});
