// Release files move with the data: an export imported into the other database, and a
// SQLite backup, both serve the same bytes to the same license.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exportDatabase } from '../../cli/export.js';
import { importDatabase } from '../../cli/import.js';
import { copyDatabaseFile } from '../../db/storage/sqlite-file.js';
import { createProduct, newLicense } from '../../../test/helpers/fixtures.js';
import { downloadRelease, newRelease } from '../../../test/helpers/releases.js';
import { createTestDatabase, DIALECTS, startTestApp, type TestApp, type TestDatabase } from '../../../test/helpers/test-app.js';
import { CHUNK_SIZE } from './release-files.js';

describe('release files in export, import and backup', () => {
  let t: TestApp;
  let dir: string;
  const bytes = randomBytes(2_300_000);
  let license: { id: string; productId: string };
  beforeAll(async () => {
    t = await startTestApp('sqlite');
    dir = mkdtempSync(join(tmpdir(), 'releases-export-'));
    const product = await createProduct(t);
    license = await newLicense(t, { productId: product.id });
    await newRelease(t, product.id, { version: '1.0.0', bytes });
  });
  afterAll(async () => {
    await t.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const servesTheFile = async (app: TestApp) => {
    const res = await downloadRelease(app, { licenseId: license.id, productId: license.productId, hwid: 'HW' });
    expect(res.status, res.text).toBe(200);
    expect(res.bytes.equals(bytes)).toBe(true);
  };

  it.each(DIALECTS)('an export imported into %s serves the file', async (dialect) => {
    const file = join(dir, `${dialect}.jsonl`);
    const counts = await exportDatabase(t.config.databaseUrl, file);
    expect(counts.release_file_chunks).toBe(Math.ceil(bytes.length / CHUNK_SIZE));
    const target: TestDatabase = await createTestDatabase(dialect);
    try {
      await importDatabase(target.url, file);
      const moved = await startTestApp(dialect, {}, target);
      try {
        await servesTheFile(moved);
      } finally {
        await moved.close();
      }
    } finally {
      await target.drop();
    }
  });

  it('a SQLite backup serves the file', async () => {
    const copy = join(dir, 'backup.db');
    copyDatabaseFile(t.config.databaseUrl.replace(/^sqlite:/, ''), copy);
    const restored = await startTestApp('sqlite', {}, { url: `sqlite:${copy}`, drop: async () => undefined });
    try {
      await servesTheFile(restored);
    } finally {
      await restored.close();
    }
  });
});
