// Sales with two instances on one database: parallel renewals of one license each add one
// period and one order (the license row lock), a BuiltByBit purchase delivered to both at
// once acts once, and the clock's sale notices are announced once whichever instance scans.
import { describe, expect, it } from 'vitest';
import { createProduct, newLicense, readLicense } from '../../../test/helpers/fixtures.js';
import type { TestApp } from '../../../test/helpers/test-app.js';
import { DIALECTS } from '../../../test/helpers/test-app.js';
import { startTwoInstances } from '../../../test/helpers/two-instances.js';
import { announceGraceEnded, announceTrialEnding } from '../licenses/expiry-notices.js';

const SECRET = 'sales-cross-instance-secret';
const ENV = { MARKETPLACE_SECRET: SECRET, WEBHOOK_RATE_LIMIT: '100000', WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true' };
const DAY = 86_400_000;

describe.each(DIALECTS)('sales on two instances (%s)', (dialect) => {
  let a: TestApp;
  let b: TestApp;
  startTwoInstances(dialect, ENV, (started) => ({ a, b } = started));

  const ordersOf = async (licenseId: string) => ((await a.admin('GET', '/orders?limit=1000')).json as any[]).filter((o) => o.licenseId === licenseId);

  it('10 parallel renewals of one license over two instances extend it exactly 10 periods, with 10 orders and 10 entries', async () => {
    const product = await createProduct(a, { isSubscription: true, recurringPeriodDays: 30 });
    const expiry = Date.now() + DAY;
    const license = await newLicense(a, { productId: product.id, expiresAtEpochMillis: expiry });
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) => (i % 2 === 0 ? a : b).admin('POST', `/licenses/${license.id}/renew`, { body: { amount: 1 } })),
    );
    expect(answers.map((r) => r.status)).toEqual(Array(10).fill(200));
    const after = await readLicense(b, license.id);
    expect(after.expiresAtEpochMillis).toBe(expiry + 10 * 30 * DAY);
    expect(after.version).toBe(license.version + 10);
    expect(await ordersOf(license.id)).toHaveLength(10);
    const entries = ((await a.admin('GET', '/actions?limit=1000')).json as any[]).filter(
      (e) => e.name === 'licenses.renewed' && JSON.parse(e.data).licenseId === license.id,
    );
    expect(entries).toHaveLength(10);
    // each renewal moved the expiry by one period from the one before it
    const moves = entries.map((e) => JSON.parse(e.data)).map((d) => d.expiresAtEpochMillis - d.previousExpiresAtEpochMillis);
    expect(new Set(moves)).toEqual(new Set([30 * DAY]));
  });

  it('one BuiltByBit purchase delivered to both instances at once acts once', async () => {
    const resource = `${Date.now()}`;
    await createProduct(a, { marketplaceResourceId: resource, isSubscription: true, recurringPeriodDays: 30 });
    const body = { secret: SECRET, user_id: `u${resource}`, resource_id: resource, purchase_date: '1767225600' };
    const first = await a.req('POST', '/integrations/builtbybit/purchase', { body });
    expect(first.status, first.text).toBe(200);
    const key = first.json.licenseKey as string;
    const expiry = (await readLicense(a, key)).expiresAtEpochMillis!;
    const renewal = { ...body, purchase_date: '1767225999' };
    const answers = await Promise.all(Array.from({ length: 6 }, (_, i) => (i % 2 === 0 ? a : b).req('POST', '/integrations/builtbybit/purchase', { body: renewal })));
    expect(answers.map((r) => r.status)).toEqual(Array(6).fill(200));
    expect(new Set(answers.map((r) => r.text)).size).toBe(1);
    expect((await readLicense(a, key)).expiresAtEpochMillis).toBe(expiry + 30 * DAY);
    expect((await ordersOf(key)).map((o) => o.kind).sort()).toEqual(['new', 'renewal']);
  });

  it('announces licenses.grace.ended and licenses.trial.ending once whichever instances scan', async () => {
    const endpoint = await a.admin('POST', '/webhook-endpoints', {
      body: { url: 'http://127.0.0.1:9/hook', events: ['licenses.grace.ended', 'licenses.trial.ending'] },
    });
    expect(endpoint.status, endpoint.text).toBe(201);
    const product = await createProduct(a, { graceDays: 1 });
    const lapsed = await newLicense(a, { productId: product.id, expiresAtEpochMillis: Date.now() - 2 * DAY });
    const trial = await newLicense(a, { trial: true, expiresAtEpochMillis: Date.now() + DAY / 2 });
    // PostgreSQL: the instances scan at once. SQLite: one after the other (two connections in one
    // process would wait on each other's lock synchronously; separate processes take turns).
    const scans = [a, b, a].flatMap((app) => [() => announceGraceEnded(app.app.storage), () => announceTrialEnding(app.app.storage)]);
    if (dialect === 'postgres') await Promise.all(scans.map((scan) => scan()));
    else for (const scan of scans) await scan();
    expect(await announceGraceEnded(b.app.storage)).toBe(0); // nothing twice
    expect(await announceTrialEnding(b.app.storage)).toBe(0);
    const count = async (type: string, id: string) =>
      (await a.app.db.selectFrom('webhook_outbox').select('event_id').where('type', '=', type).where('body', 'like', `%${id}%`).execute()).length;
    expect(await count('licenses.grace.ended', lapsed.id)).toBe(1);
    expect(await count('licenses.trial.ending', trial.id)).toBe(1);
    expect((await a.admin('DELETE', `/webhook-endpoints/${endpoint.json.id}`)).status).toBe(204);
  });
});
