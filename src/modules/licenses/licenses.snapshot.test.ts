import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newLicense, validate } from '../../../test/helpers/fixtures.js';
import { DIALECTS, startTestApp, type TestApp } from '../../../test/helpers/test-app.js';
import type { License } from './licenses.schemas.js';

/** A validation binds a new IP and records its attempt in one commit: a read must show both or neither. */
function expectConsistent(license: License): void {
  const validIps = new Set(license.validationAttempts.filter((a) => a.successful).map((a) => a.ip));
  expect(new Set(license.usedIps)).toEqual(validIps);
}

describe.each(DIALECTS)('license reads while validations write (%s)', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(dialect, { VALIDATION_RATE_LIMIT: '100000' });
  });
  afterAll(() => t.close());

  it('show bindings and their attempts from one state of the database', async () => {
    const license = await newLicense(t);
    const writes = Promise.all(
      Array.from({ length: 120 }, (_, i) =>
        validate(t, { licenseId: license.id, productId: license.productId, hwid: 'HW' }, `127.0.${1 + (i >> 6)}.${2 + (i % 64)}`),
      ),
    );
    let reads = 0;
    let done = false;
    void writes.finally(() => {
      done = true;
    });
    while (!done) {
      const [one, list] = await Promise.all([
        t.admin('GET', `/licenses/${license.id}`),
        t.admin('GET', `/licenses?customerId=${license.customerId}`),
      ]);
      expectConsistent(one.json);
      expectConsistent(list.json[0]);
      reads += 1;
    }
    await writes;
    expect(reads).toBeGreaterThan(0);
  });
});
