// Two instances on one database, the second validating a license it has just seen bound
// and valid (on PostgreSQL it then decides from what it remembers and records the attempt
// only if those facts still hold): every change made on the first instance is seen by the
// very next validation on the second (DECISIONS.md, issue #21).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProduct, newLicense, putBody, readLicense, validate, type ValidateArgs } from '../../../test/helpers/fixtures.js';
import { createTestDatabase, DIALECTS, startTestApp, type TestApp, type TestDatabase } from '../../../test/helpers/test-app.js';
import { useTestClock } from '../../../test/helpers/clock.js';
import type { License } from '../licenses/licenses.schemas.js';

const ENV = { VALIDATION_RATE_LIMIT: '100000' };

describe.each(DIALECTS)('a change on one instance, the next validation on another (%s)', (dialect) => {
  let database: TestDatabase;
  let a: TestApp;
  let b: TestApp;
  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    a = await startTestApp(dialect, ENV, database);
    b = await startTestApp(dialect, { ...ENV, VALIDATION_HISTORY_MAX: '1000' }, database);
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await database?.drop();
  });

  /** A license validated a few times on b (bound, valid: b now remembers it). */
  async function boundOnB(over: Record<string, unknown> = {}): Promise<{ license: License; args: ValidateArgs }> {
    const license = await newLicense(a, { maxIps: 1, maxHwids: 1, ...over });
    const args = { licenseId: license.id, productId: license.productId, hwid: 'HW-B' };
    for (let i = 0; i < 3; i++) expect((await validate(b, args)).json).toEqual({ valid: true });
    return { license: await readLicense(a, license.id), args };
  }
  const lastReason = async (id: string) => (await readLicense(a, id)).validationAttempts.at(-1)!.reason;

  it('a PUT that sets an expiry in the past', async () => {
    const { license, args } = await boundOnB();
    const put = await a.admin('PUT', `/licenses/${license.id}`, { body: putBody(license, { expiresAtEpochMillis: Date.now() - 1000 }) });
    expect(put.status).toBe(200);
    expect((await validate(b, args)).json).toEqual({ valid: false });
    expect(await lastReason(license.id)).toBe('EXPIRED');
  });

  it('a PUT that moves the license to another product', async () => {
    const { license, args } = await boundOnB();
    const other = await createProduct(a);
    expect((await a.admin('PUT', `/licenses/${license.id}`, { body: putBody(license, { productId: other.id }) })).status).toBe(200);
    expect((await validate(b, args)).json).toEqual({ valid: false });
    expect(await lastReason(license.id)).toBe('PRODUCT_MISMATCH');
  });

  it('a PUT that replaces the bound HWID', async () => {
    const { license, args } = await boundOnB();
    expect((await a.admin('PUT', `/licenses/${license.id}`, { body: putBody(license, { usedHwids: ['HW-OTHER'] }) })).status).toBe(200);
    expect((await validate(b, args)).json).toEqual({ valid: false });
    expect(await lastReason(license.id)).toBe('HWID_LIMIT_REACHED');
  });

  it('a revocation, then a reinstatement', async () => {
    const { license, args } = await boundOnB();
    expect((await a.admin('POST', `/licenses/${license.id}/revoke`, { body: { reason: 'refund' } })).status).toBe(200);
    expect((await validate(b, args)).json).toEqual({ valid: false });
    expect(await lastReason(license.id)).toBe('REVOKED'); // DECISIONS.md "License policies": revocation is its own reason
    expect((await a.admin('POST', `/licenses/${license.id}/reinstate`)).status).toBe(200);
    expect((await validate(b, args)).json).toEqual({ valid: true });
  });

  it('a self-service release, the slot then taken by another machine', async () => {
    const { license, args } = await boundOnB({ selfReleaseLimit: 3 });
    const released = await a.req('POST', '/licenses/release', { body: { licenseId: license.id, productId: license.productId, hwid: 'HW-B' } });
    expect(released.json).toMatchObject({ releasedHwids: ['HW-B'] });
    expect((await validate(a, { ...args, hwid: 'HW-NEW' })).json).toEqual({ valid: true });
    expect((await validate(b, args)).json).toEqual({ valid: false });
    expect(await lastReason(license.id)).toBe('HWID_LIMIT_REACHED');
    expect((await readLicense(a, license.id)).usedHwids).toEqual(['HW-NEW']);
  });

  it('a delete: unknown at once, nothing recorded', async () => {
    const { license, args } = await boundOnB();
    expect((await a.admin('DELETE', `/licenses/${license.id}`)).status).toBe(204);
    expect((await validate(b, args)).json).toEqual({ valid: false });
    expect((await b.admin('GET', `/licenses/${license.id}`)).status).toBe(404);
  });

  it('no change: every validation on b is recorded, in order, and refreshes last seen', async () => {
    const { license, args } = await boundOnB();
    const before = (await readLicense(a, license.id)).bindings!.hwids[0]!.lastSeenAtEpochMillis;
    useTestClock().advance(1100); // last seen is kept to the second
    const results = await Promise.all(Array.from({ length: 20 }, () => validate(b, args)));
    expect(results.every((r) => r.json.valid === true)).toBe(true);
    const after = await readLicense(a, license.id);
    expect(after.validationAttempts).toHaveLength(23);
    expect(after.validationAttempts.every((x) => x.successful && x.reason === 'VALID')).toBe(true);
    expect(after.bindings!.hwids[0]!.lastSeenAtEpochMillis).toBeGreaterThan(before);
    expect(after.version).toBe(license.version);
  });
});
