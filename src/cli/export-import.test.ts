// export/import through the real CLI: a populated database moves to the other dialect
// (PostgreSQL when TEST_DATABASE_URL is set) and back, and every record survives with
// its ids, timestamps and versions; bad input leaves the target untouched.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDb } from '../db/database.js';
import { runCli } from '../../test/helpers/cli.js';
import { useTestClock } from '../../test/helpers/clock.js';
import { createOrder, createRole, generateKey, staffWith, newLicense, createProduct, putBody } from '../../test/helpers/fixtures.js';
import { ADMIN, createTestDatabase, DIALECTS, startTestApp, type TestApp, type TestDatabase } from '../../test/helpers/test-app.js';
import { base32Decode, codeForStep, stepAt } from '../modules/two-factor/totp.js';
import { DERIVED_TABLES, TABLES } from './tables.js';
import { downloadRelease, newRelease } from '../../test/helpers/releases.js';
import { announceExpired, announceExpiring, announceGraceEnded, announceTrialEnding } from '../modules/licenses/expiry-notices.js';
import { startReceiver } from '../../test/helpers/webhook-receiver.js';
import { polymartSignature } from '../modules/marketplace/polymart.signature.js';

const POLYMART_SECRET = 'test-polymart-secret';

/** The data lines of an export, sorted (row order may differ between dialects' collations). */
const records = (file: string) => readFileSync(file, 'utf8').trim().split('\n').slice(1).sort();

async function tableNames(url: string): Promise<string[]> {
  const { db, dialect } = createDb(url);
  try {
    const rows =
      dialect === 'sqlite'
        ? await sql<{ name: string }>`SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE 'kysely_%'`.execute(db)
        : await sql<{ name: string }>`SELECT table_name AS name FROM information_schema.tables WHERE table_schema = 'public' AND table_name NOT LIKE 'kysely_%'`.execute(db);
    return rows.rows.map((r) => r.name).sort();
  } finally {
    await db.destroy();
  }
}

describe.each(DIALECTS)('cli export and import (%s source)', (dialect) => {
  const other = DIALECTS.find((d) => d !== dialect) ?? dialect;
  let t: TestApp;
  let dir: string;
  const databases: TestDatabase[] = [];
  const fresh = async (d: typeof dialect) => {
    const database = await createTestDatabase(d);
    databases.push(database);
    return database;
  };

  beforeAll(async () => {
    // No JWT_SECRET: the service generates one and stores it (settings), which must move too.
    t = await startTestApp(dialect, {
      VALIDATION_RATE_LIMIT: '1000', JWT_SECRET: '', WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true', POLYMART_WEBHOOK_SECRET: POLYMART_SECRET,
    });
    dir = mkdtempSync(join(tmpdir(), 'licensing-export-'));
  });
  afterAll(async () => {
    await t?.close();
    for (const database of databases) await database.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('exports every table of the database (a new table needs its line in cli/tables.ts)', async () => {
    expect(await tableNames(t.config.databaseUrl)).toEqual([...TABLES.map((table) => table.name), ...DERIVED_TABLES].sort());
  });

  it(`moves every record to ${other} and back, keeping ids, timestamps and versions`, async () => {
    // Something in every table: staff with a role, a used and an unused registration key,
    // products, customers, licenses with bindings, history and a bumped version, orders,
    // the webhook's records and the audit log.
    const twoFactor = await staffWith(t, ['customers:read']);
    const enrolment = await t.req('POST', '/staff/me/totp', { token: twoFactor.token });
    const code = codeForStep(base32Decode(enrolment.json.secret), stepAt(Date.now()));
    expect((await t.req('POST', '/staff/me/totp/confirm', { token: twoFactor.token, body: { password: twoFactor.password, code } })).status).toBe(200);
    await createRole(t, ['licenses:read', 'licenses:write']);
    await generateKey(t);
    const apiToken = await t.admin('POST', '/api-tokens', { body: { name: 'export', permissions: ['customers:read'], expiresAtEpochMillis: null } });
    expect(apiToken.status).toBe(201);
    const signedOut = (await t.req('POST', '/auth/login', { body: ADMIN })).json.token;
    expect((await t.req('POST', '/auth/logout', { token: signedOut })).status).toBe(204);
    // A sharing alert: the validations below record the license's sightings.
    const product = await createProduct(t, {
      marketplaceResourceId: `res-${Date.now()}`, polymartProductId: `pm-${Date.now()}`, price: 12.5, sharingAlert: { distinctHwids: 5, windowHours: 24 },
    });
    const license = await newLicense(t, { productId: product.id, maxHwids: 1, maxIps: 2 });
    for (const hwid of ['HW-1', 'HW-1', 'HW-2']) {
      await t.req('POST', '/licenses/validate', { body: { licenseId: license.id, productId: product.id, hwid } });
    }
    const edited = await t.admin('PUT', `/licenses/${license.id}`, { body: putBody((await t.admin('GET', `/licenses/${license.id}`)).json, { maxIps: 5, selfReleaseLimit: 3 }) });
    expect(edited.json.version).toBe(2);
    const selfRelease = await t.req('POST', '/licenses/release', { body: { licenseId: license.id, productId: product.id, hwid: 'HW-1' } });
    expect(selfRelease.json.releasedHwids).toEqual(['HW-1']);
    await t.req('POST', '/licenses/validate', { body: { licenseId: license.id, productId: product.id, hwid: 'HW-1' } }); // bound again
    await createOrder(t, { licenseIds: [license.id] });
    const rule = await t.admin('POST', '/blocklist', { body: { type: 'hwid', value: 'HW-9', licenseId: license.id, mode: 'flag', note: 'export' } });
    expect(rule.status).toBe(201);
    // Releases: a file in chunks (bytes, base64 in the file), and a licensed download of it.
    await newRelease(t, product.id, { version: '1.0.0', bytes: Buffer.from('the plugin file \u0000\u00ff bytes') });
    expect((await downloadRelease(t, { licenseId: license.id, productId: product.id, hwid: 'HW-1' })).status).toBe(200);
    const webhook = await t.req('POST', '/marketplace', {
      form: { secret: 'test-marketplace-secret', user_id: '4242', resource_id: (await t.admin('GET', `/products/${product.id}`)).json.marketplaceResourceId, marketplace: 'true' },
    });
    expect(webhook.status).toBe(200);
    // A Polymart purchase: its buyer (socials.PolymartID) and the delivery's nonce move too.
    const polymart = JSON.stringify({
      event: 'product.user.purchase', time: 1764000000, nonce: 'nonce-1', payload: { product: { id: product.polymartProductId }, user: { id: 4242 } },
    });
    const purchased = await t.req('POST', '/integrations/polymart', {
      rawBody: polymart, headers: { 'content-type': 'application/json', 'x-polymart-signature': polymartSignature(polymart, POLYMART_SECRET) },
    });
    expect(purchased.json).toMatchObject({ created: true });
    // Outbound webhooks: an endpoint, its events, a delivery logged, an expiry announced.
    const receiver = await startReceiver();
    const endpoint = await t.admin('POST', '/webhook-endpoints', { body: { url: receiver.url, events: ['*'] } });
    expect(endpoint.status).toBe(201);
    await newLicense(t, { productId: product.id, expiresAtEpochMillis: Date.now() + 86_400_000 });
    expect(await announceExpiring(t.app.storage)).toBe(1);
    await receiver.waitFor(2);
    await t.app.webhookWorker.stop(); // the log is complete and stays as exported
    await receiver.close();
    // License policies: a license the clock expired, announced once (license_expired_notices).
    const time = useTestClock();
    await newLicense(t, { productId: product.id, expiresAtEpochMillis: time.now() + 2000 });
    time.advance(2000); // the clock passes its expiry
    expect(await announceExpired(t.app.storage)).toBe(1);
    // Sales: a tier and a license at it, a BuiltByBit purchase, a grace that ended, a trial ending.
    const tiered = await createProduct(t, { graceDays: 1, tiers: [{ code: 'pro', name: 'Pro', features: { pro: true }, marketplaceResourceId: `tier-${Date.now()}` }] });
    await newLicense(t, { productId: tiered.id, tier: 'pro', expiresAtEpochMillis: time.now() - 3 * 86_400_000 });
    await newLicense(t, { productId: tiered.id, trial: true, expiresAtEpochMillis: time.now() + 3_600_000 });
    const bbb = await t.req('POST', '/integrations/builtbybit/purchase', {
      body: { secret: 'test-marketplace-secret', user_id: '4243', resource_id: product.marketplaceResourceId, purchase_date: 1764000000 },
    });
    expect(bbb.status, bbb.text).toBe(200);
    expect(await announceGraceEnded(t.app.storage)).toBeGreaterThanOrEqual(1);
    expect(await announceTrialEnding(t.app.storage)).toBe(1);
    const sourceLicense = (await t.admin('GET', `/licenses/${license.id}`)).json;

    const first = join(dir, `${dialect}-1.jsonl`);
    const exported = await runCli(['export', first], { DATABASE_URL: t.config.databaseUrl });
    expect(exported.stderr).toBe('');
    expect(exported.code).toBe(0);

    const middle = await fresh(other);
    const imported = await runCli(['import', first], { DATABASE_URL: middle.url });
    expect(imported.stderr).toBe('');
    expect(imported.code).toBe(0);
    const second = join(dir, `${dialect}-2.jsonl`);
    expect((await runCli(['export', second], { DATABASE_URL: middle.url })).code).toBe(0);

    const back = await fresh(dialect);
    expect((await runCli(['import', second], { DATABASE_URL: back.url })).code).toBe(0);
    const third = join(dir, `${dialect}-3.jsonl`);
    expect((await runCli(['export', third], { DATABASE_URL: back.url })).code).toBe(0);

    const original = records(first);
    for (const table of TABLES) expect(original.some((line) => line.startsWith(`{"table":"${table.name}"`)), table.name).toBe(true);
    expect(records(second)).toEqual(original);
    expect(records(third)).toEqual(original);
    expect(JSON.parse(readFileSync(second, 'utf8').split('\n')[0]!)).toMatchObject({ format: 'licensing-export', dialect: other });

    // The moved database serves the same license (bindings, history, version), and new
    // attempts get fresh ids after the imported ones.
    const moved = await startTestApp(other, { VALIDATION_RATE_LIMIT: '1000', JWT_SECRET: '' }, middle);
    try {
      // Same stored JWT secret: a token issued by the source is accepted by the moved service.
      expect((await moved.req('GET', '/actions?limit=1', { token: t.adminToken })).status).toBe(200);
      expect((await moved.admin('GET', `/licenses/${license.id}`)).json).toEqual(sourceLicense);
      const next = await moved.req('POST', '/licenses/validate', { body: { licenseId: license.id, productId: product.id, hwid: 'HW-1' } });
      expect(next.json).toEqual({ valid: true });
      expect((await moved.admin('GET', `/licenses/${license.id}`)).json.validationAttempts).toHaveLength(sourceLicense.validationAttempts.length + 1);
    } finally {
      await moved.app.close();
    }
  });

  it('refuses a database that is not empty, and a bad file leaves the target empty', async () => {
    const file = join(dir, `${dialect}-refuse.jsonl`);
    expect((await runCli(['export', file], { DATABASE_URL: t.config.databaseUrl })).code).toBe(0);

    const notEmpty = await runCli(['import', file], { DATABASE_URL: t.config.databaseUrl });
    expect(notEmpty.code).toBe(1);
    expect(notEmpty.stderr).toContain('not empty');

    const [header, ...rows] = readFileSync(file, 'utf8').trim().split('\n');
    const broken = join(dir, `${dialect}-broken.jsonl`);
    writeFileSync(broken, [header, ...rows.slice(0, 5), '{"table": "licenses", "row": {"id": "X", "product_id": "no such product"}}'].join('\n'));
    const target = await fresh(other);
    const failed = await runCli(['import', broken], { DATABASE_URL: target.url });
    expect(failed.code).toBe(1);
    const { db } = createDb(target.url);
    try {
      expect(await db.selectFrom('staff').select('id').execute()).toEqual([]);
      expect(await db.selectFrom('settings').select('key').execute()).toEqual([]);
    } finally {
      await db.destroy();
    }

    // An attempt whose license the file does not hold: on PostgreSQL no foreign key refuses it, the import does.
    const attemptsAt = TABLES.findIndex((table) => table.name === 'validation_attempts');
    const before = rows.filter((line) => TABLES.findIndex((table) => table.name === JSON.parse(line).table) <= attemptsAt);
    const orphan = { table: 'validation_attempts', row: { id: 999_999, license_id: 'no such license', hwid: 'h', ip: '10.0.0.1', timestamp: 1, successful: 0, reason: 'EXPIRED' } };
    const orphaned = join(dir, `${dialect}-orphan.jsonl`);
    writeFileSync(orphaned, [header, ...before, JSON.stringify(orphan)].join('\n'));
    const refused = await runCli(['import', orphaned], { DATABASE_URL: target.url });
    expect(refused.code).toBe(1);
    if (other === 'postgres') expect(refused.stderr).toContain('refers to license "no such license"');
    const { db: after } = createDb(target.url);
    try {
      expect(await after.selectFrom('staff').select('id').execute()).toEqual([]);
    } finally {
      await after.destroy();
    }

    const garbage = join(dir, `${dialect}-garbage.jsonl`);
    writeFileSync(garbage, `${header}\nnot json\n`);
    const rejected = await runCli(['import', garbage], { DATABASE_URL: target.url });
    expect(rejected.code).toBe(1);
    expect(rejected.stderr).toContain('line 2 is not JSON');
  });
});
