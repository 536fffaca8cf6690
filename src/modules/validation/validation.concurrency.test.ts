// Parallel validations never push a license past its limits and never lose an attempt:
// on one instance, and on two instances sharing one database.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startChildApp, type ChildApp } from '../../../test/helpers/child-process-app.js';
import { newLicense, readLicense, validate } from '../../../test/helpers/fixtures.js';
import { createTestDatabase, DIALECTS, startTestApp, type TestApp, type TestDatabase } from '../../../test/helpers/test-app.js';
import { startTwoInstances } from '../../../test/helpers/two-instances.js';

const ENV = { VALIDATION_RATE_LIMIT: '100000' };
/** 127.0.2.1, 127.0.2.2, … distinct source addresses. */
const ipOf = (i: number) => `127.0.${2 + Math.floor(i / 250)}.${(i % 250) + 1}`;

describe.each(DIALECTS)('concurrent validations (%s)', (dialect) => {
  let a: TestApp;
  let b: TestApp;
  startTwoInstances(dialect, ENV, (started) => ({ a, b } = started));

  it('50 parallel validations from distinct IPs on maxIps=3 bind exactly 3 IPs and record 50 attempts', async () => {
    const license = await newLicense(a, { maxIps: 3 });
    const args = { licenseId: license.id, productId: license.productId, hwid: 'HW' };
    const results = await Promise.all(Array.from({ length: 50 }, (_, i) => validate(a, args, ipOf(i))));
    expect(results.every((r) => r.status === 200)).toBe(true);
    expect(results.filter((r) => r.json.valid)).toHaveLength(3);
    const after = await readLicense(a, license.id);
    expect(after.usedIps).toHaveLength(3);
    expect(after.validationAttempts).toHaveLength(50);
    expect(after.validationAttempts.filter((x) => x.successful)).toHaveLength(3);
    expect(new Set(after.usedIps)).toEqual(new Set(after.validationAttempts.filter((x) => x.successful).map((x) => x.ip)));
  });

  it('parallel validations with distinct HWIDs on maxHwids=2 bind exactly 2', async () => {
    const license = await newLicense(a, { maxHwids: 2 });
    const results = await Promise.all(
      Array.from({ length: 40 }, (_, i) => validate(a, { licenseId: license.id, productId: license.productId, hwid: `HW-${i}` }, ipOf(i))),
    );
    expect(results.filter((r) => r.json.valid)).toHaveLength(2);
    const after = await readLicense(a, license.id);
    expect(after.usedHwids).toHaveLength(2);
    expect(after.usedIps).toHaveLength(2); // failed requests bind no IP
    expect(after.validationAttempts).toHaveLength(40);
  });

  it('two instances on one database validating in parallel stay within the limits and lose nothing', async () => {
    const license = await newLicense(a, { maxIps: 3, maxHwids: 5 });
    const results = await Promise.all(
      Array.from({ length: 60 }, (_, i) =>
        validate(i % 2 === 0 ? a : b, { licenseId: license.id, productId: license.productId, hwid: `HW-${i % 7}` }, ipOf(i)),
      ),
    );
    expect(results.every((r) => r.status === 200)).toBe(true);
    const after = await readLicense(b, license.id);
    expect(after.usedIps.length).toBeLessThanOrEqual(3);
    expect(after.usedHwids.length).toBeLessThanOrEqual(5);
    expect(after.usedIps).toHaveLength(3);
    expect(after.validationAttempts).toHaveLength(60);
    expect(results.filter((r) => r.json.valid)).toHaveLength(after.validationAttempts.filter((x) => x.successful).length);
  });

  it('records every one of 300 parallel validations on an unlimited license', async () => {
    const license = await newLicense(a);
    const results = await Promise.all(
      Array.from({ length: 300 }, (_, i) =>
        validate(i % 3 === 0 ? b : a, { licenseId: license.id, productId: license.productId, hwid: `HW-${i}` }, ipOf(i)),
      ),
    );
    expect(results.every((r) => r.json?.valid === true)).toBe(true);
    const after = await readLicense(a, license.id);
    expect(after.validationAttempts).toHaveLength(300);
    expect(after.usedIps).toHaveLength(300);
    expect(after.usedHwids).toHaveLength(300);
    expect(after.version).toBe(1);
  });
});

describe('concurrent validations from two processes on one SQLite file', () => {
  let database: TestDatabase;
  let a: TestApp;
  let child: ChildApp;
  beforeAll(async () => {
    database = await createTestDatabase('sqlite');
    a = await startTestApp('sqlite', ENV, database);
    child = await startChildApp({ ...ENV, DATABASE_URL: database.url });
  }, 60_000);
  afterAll(async () => {
    await child?.stop();
    await a.close();
    await database.drop();
  });

  it('never exceeds the limits and records every attempt', async () => {
    const license = await newLicense(a, { maxIps: 4, maxHwids: 6 });
    const results = await Promise.all(
      Array.from({ length: 120 }, (_, i) => {
        const body = { licenseId: license.id, productId: license.productId, hwid: `HW-${i % 9}` };
        return i % 2 === 0 ? validate(a, body, ipOf(i)) : child.req('POST', '/licenses/validate', { body, localAddress: ipOf(i) });
      }),
    );
    expect(results.every((r) => r.status === 200)).toBe(true);
    const after = await readLicense(a, license.id);
    expect(after.usedIps).toHaveLength(4);
    expect(after.usedHwids.length).toBeLessThanOrEqual(6);
    expect(after.validationAttempts).toHaveLength(120);
    expect(results.filter((r) => r.json.valid)).toHaveLength(after.validationAttempts.filter((x) => x.successful).length);
  });

  it('lets this process create licenses (read, then write) while the other validates continuously', async () => {
    const busy = await newLicense(a);
    const target = await newLicense(a);
    let stop = false;
    const load = (async () => {
      while (!stop) {
        const body = { licenseId: busy.id, productId: busy.productId, hwid: 'HW' };
        await Promise.all(Array.from({ length: 20 }, (_, i) => child.req('POST', '/licenses/validate', { body, localAddress: ipOf(i) })));
      }
    })();
    const statuses: number[] = [];
    for (let i = 0; i < 60; i += 1) {
      const body = { productId: target.productId, customerId: target.customerId };
      statuses.push((await a.admin('POST', '/licenses', { body })).status);
    }
    stop = true;
    await load;
    expect(statuses.every((s) => s === 201)).toBe(true);
  });

  it('shows this process a license from one state of the database while the other binds IPs', async () => {
    const license = await newLicense(a);
    const body = { licenseId: license.id, productId: license.productId, hwid: 'HW' };
    let stop = false;
    const load = (async () => {
      // At most 40 rounds: 800 attempts stay under VALIDATION_HISTORY_MAX, so none is pruned.
      for (let round = 0; !stop && round < 40; round += 1) {
        await Promise.all(Array.from({ length: 20 }, (_, i) => child.req('POST', '/licenses/validate', { body, localAddress: ipOf(round * 20 + i) })));
      }
    })();
    try {
      for (let i = 0; i < 150; i += 1) {
        const shown = await readLicense(a, license.id);
        const successfulIps = new Set(shown.validationAttempts.filter((x) => x.successful).map((x) => x.ip));
        expect(new Set(shown.usedIps)).toEqual(successfulIps); // a binding and its attempt commit together
      }
    } finally {
      stop = true;
      await load;
    }
  });
});

