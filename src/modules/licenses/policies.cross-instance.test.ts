// License policies with several instances on one database (DECISIONS.md "License policies"):
// a first-validation clock starts once whichever instances validate at once, and survives
// kill -9; `licenses.expired` is announced once per license whichever instances scan.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startChildApp, type ChildApp } from '../../../test/helpers/child-process-app.js';
import { useTestClock } from '../../../test/helpers/clock.js';
import { auditEntries, createProduct, newLicense, readLicense, validate } from '../../../test/helpers/fixtures.js';
import { ADMIN, createTestDatabase, DIALECTS, startTestApp, type TestApp, type TestDatabase } from '../../../test/helpers/test-app.js';
import { startTwoInstances } from '../../../test/helpers/two-instances.js';
import { announceExpired } from './expiry-notices.js';

const ENV = { VALIDATION_RATE_LIMIT: '100000', WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true' };
const DAY = 86_400_000;

describe.each(DIALECTS)('license policies on two instances (%s)', (dialect) => {
  let a: TestApp;
  let b: TestApp;
  startTwoInstances(dialect, ENV, (started) => ({ a, b } = started));

  const startEntries = async (id: string) =>
    (await auditEntries(a, 'licenses.expiry.start')).filter((e) => JSON.parse(e.data).licenseId === id);

  it('20 parallel first validations over two instances start the clock once, with one audit entry and its event', async () => {
    const endpoint = await a.admin('POST', '/webhook-endpoints', { body: { url: 'http://127.0.0.1:9/hook', events: ['licenses.expiry.start'] } });
    expect(endpoint.status, endpoint.text).toBe(201);
    const product = await createProduct(a, { expiryBasis: 'firstValidation', validForDays: 14 });
    for (let round = 0; round < 3; round++) {
      const license = await newLicense(a, { productId: product.id, expiresAtEpochMillis: undefined });
      const answers = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          validate(i % 2 === 0 ? a : b, { licenseId: license.id, productId: product.id, hwid: `H${i % 3}` }, `127.0.0.${2 + (i % 4)}`),
        ),
      );
      expect(answers.every((r) => r.status === 200 && r.json.valid === true)).toBe(true);
      const after = await readLicense(b, license.id);
      expect(after.version).toBe(2);
      expect(after.validationAttempts).toHaveLength(20);
      expect(after.expiresAtEpochMillis).toBe(after.expiryStartedAtEpochMillis! + 14 * DAY);
      const entries = await startEntries(license.id);
      expect(entries).toHaveLength(1);
      expect(entries[0]!.performedBy).toBe('validation');
      const events = await a.app.db
        .selectFrom('webhook_outbox')
        .select(['event_id', 'body'])
        .where('type', '=', 'licenses.expiry.start')
        .where('body', 'like', `%${license.id}%`)
        .execute();
      expect(events).toHaveLength(1);
      expect(events[0]!.event_id).toBe(entries[0]!.id); // one fact: the audit entry's id
      expect(JSON.parse(events[0]!.body).data).toMatchObject({ id: license.id, expiresAtEpochMillis: after.expiresAtEpochMillis });
    }
    expect((await a.admin('DELETE', `/webhook-endpoints/${endpoint.json.id}`)).status).toBe(204);
  });

  it('announces licenses.expired once per license, from either instance, only for an expiry the clock passed', async () => {
    const endpoint = await a.admin('POST', '/webhook-endpoints', { body: { url: 'http://127.0.0.1:9/hook', events: ['licenses.expired'] } });
    expect(endpoint.status, endpoint.text).toBe(201);
    const time = useTestClock();
    const product = await createProduct(a, { graceDays: 1 });
    const lapsing = await newLicense(a, { productId: product.id, expiresAtEpochMillis: time.now() + 2000 });
    const alreadyPast = await newLicense(a, { productId: product.id, expiresAtEpochMillis: time.now() - 1000 });
    const revoked = await newLicense(a, { productId: product.id, expiresAtEpochMillis: time.now() + DAY });
    expect((await a.admin('POST', `/licenses/${revoked.id}/revoke`)).status).toBe(200);
    const moved = await newLicense(a, { productId: product.id, expiresAtEpochMillis: time.now() + DAY });
    expect((await a.admin('PATCH', `/licenses/${moved.id}`, { body: { expiresAtEpochMillis: time.now() - 5 } })).status).toBe(200);
    time.advance(2000); // the clock passes the lapsing license's expiry
    // PostgreSQL: the instances scan at once. SQLite: one after the other (two connections in one
    // process would wait on each other's lock synchronously; separate processes take turns).
    const scans = [a, b, a].map((app) => () => announceExpired(app.app.storage));
    const counts = dialect === 'postgres' ? await Promise.all(scans.map((scan) => scan())) : [await scans[0]!(), await scans[1]!(), await scans[2]!()];
    const announced = async (id: string) =>
      a.app.db.selectFrom('webhook_outbox').select('body').where('type', '=', 'licenses.expired').where('body', 'like', `%${id}%`).execute();
    expect(await announced(lapsing.id)).toHaveLength(1);
    expect(JSON.parse((await announced(lapsing.id))[0]!.body).data).toMatchObject({ id: lapsing.id, expiresAtEpochMillis: lapsing.expiresAtEpochMillis });
    for (const quiet of [alreadyPast, revoked, moved]) expect(await announced(quiet.id)).toHaveLength(0);
    expect(counts.reduce((x, y) => x + y, 0)).toBeGreaterThanOrEqual(1);
    expect(await announceExpired(b.app.storage)).toBe(0); // nothing twice
    expect((await a.admin('DELETE', `/webhook-endpoints/${endpoint.json.id}`)).status).toBe(204);
  });
});

describe.each(DIALECTS)('kill -9 while clocks start (%s)', (dialect) => {
  let database: TestDatabase;
  let a: TestApp;
  let child: ChildApp | undefined;
  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    a = await startTestApp(dialect, ENV, database);
  });
  afterAll(async () => {
    await child?.kill();
    await a?.close();
    await database?.drop();
  });

  it('loses nothing acknowledged: every answered first validation has its attempt, its clock and one audit entry', { timeout: 120_000 }, async () => {
    const product = await createProduct(a, { expiryBasis: 'firstValidation', validForDays: 30 });
    const licenses = await Promise.all(Array.from({ length: 30 }, () => newLicense(a, { productId: product.id, expiresAtEpochMillis: undefined })));
    const warm = await newLicense(a, { productId: product.id, expiresAtEpochMillis: undefined });
    child = await startChildApp({ ...ENV, DATABASE_URL: database.url, MASTER_ADMIN_USERNAME: ADMIN.username, MASTER_ADMIN_PASSWORD: ADMIN.password });
    const running = child;
    expect((await running.req('POST', '/licenses/validate', { body: { licenseId: warm.id, productId: product.id, hwid: 'H' } })).json.valid).toBe(true);
    // kill -9 in the middle of a stream (four senders taking the next license): at the fifth
    // answer, with some answered, some in flight and some never sent
    const acknowledged = new Set<string>();
    const queue = [...licenses];
    let killed: Promise<void> | undefined;
    const sender = async () => {
      for (let license = queue.shift(); license; license = queue.shift()) {
        const res = await running.req('POST', '/licenses/validate', { body: { licenseId: license.id, productId: product.id, hwid: 'H' } }).catch(() => null);
        if (res?.status === 200 && res.json.valid === true) acknowledged.add(license.id);
        if (acknowledged.size === 5) killed ??= running.kill();
      }
    };
    await Promise.all(Array.from({ length: 4 }, sender));
    expect(killed, 'five first validations answered before the kill').toBeDefined();
    await killed;
    child = undefined;
    expect(acknowledged.size).toBeGreaterThan(0);
    const starts = await auditEntries(a, 'licenses.expiry.start');
    for (const license of licenses) {
      const after = await readLicense(a, license.id);
      const entries = starts.filter((e) => JSON.parse(e.data).licenseId === license.id);
      const started = after.expiresAtEpochMillis !== null;
      // all or nothing: the clock, its version step, its audit entry and the attempt commit together
      expect(entries).toHaveLength(started ? 1 : 0);
      expect(after.version).toBe(started ? 2 : 1);
      expect(after.validationAttempts).toHaveLength(started ? 1 : 0);
      if (acknowledged.has(license.id)) expect(started).toBe(true);
    }
  });
});
