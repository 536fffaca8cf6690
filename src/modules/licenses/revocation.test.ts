// Revoking and reinstating a license (DECISIONS.md "Revoking a license"): expiry-based, so
// validation needs nothing new; the replaced expiry comes back; a PUT clears the state.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEntries, newLicense, putBody, readLicense, staffWith, validate } from '../../../test/helpers/fixtures.js';
import { DIALECTS, startTestApp, type TestApp } from '../../../test/helpers/test-app.js';

describe.each(DIALECTS)('revoke and reinstate (%s)', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(dialect, { VALIDATION_RATE_LIMIT: '100000' });
  });
  afterAll(() => t?.close());

  const entry = async (name: string, licenseId: string) =>
    (await auditEntries(t, name)).map((e) => ({ ...e, data: JSON.parse(e.data) })).find((e) => e.data.licenseId === licenseId);

  for (const expiry of [null, Date.now() + 30 * 86_400_000]) {
    it(`revokes (validation says false), reinstates the former expiry (${expiry === null ? 'perpetual' : 'dated'}), each audited with version + 1`, async () => {
      const license = await newLicense(t, { expiresAtEpochMillis: expiry });
      const args = { licenseId: license.id, productId: license.productId, hwid: 'HW' };
      expect((await validate(t, args)).json).toEqual({ valid: true });

      const before = Date.now();
      const revoked = await t.admin('POST', `/licenses/${license.id}/revoke`, { body: { reason: 'refund' } });
      expect(revoked.status).toBe(200);
      expect(revoked.json).toMatchObject({ revokedReason: 'refund', version: license.version + 1, usedHwids: ['HW'] });
      expect(revoked.json.revokedAtEpochMillis).toBeGreaterThanOrEqual(before);
      expect(revoked.json.expiresAtEpochMillis).toBe(revoked.json.revokedAtEpochMillis);
      expect((await validate(t, args)).json).toEqual({ valid: false });
      // DECISIONS.md "License policies": revocation is its own reason (it was EXPIRED before)
      expect((await readLicense(t, license.id)).validationAttempts.at(-1)!.reason).toBe('REVOKED');
      expect((await entry('licenses.revoke', license.id))!).toMatchObject({
        performedBy: 'root',
        data: { licenseId: license.id, reason: 'refund', previousExpiresAtEpochMillis: expiry },
      });

      const again = await t.admin('POST', `/licenses/${license.id}/revoke`);
      expect(again).toMatchObject({ status: 409, json: { error: 'License is already revoked' } });

      const reinstated = await t.admin('POST', `/licenses/${license.id}/reinstate`);
      expect(reinstated.status).toBe(200);
      expect(reinstated.json).toMatchObject({ expiresAtEpochMillis: expiry, revokedAtEpochMillis: null, revokedReason: null, version: license.version + 2 });
      expect((await validate(t, args)).json).toEqual({ valid: true });
      expect((await entry('licenses.reinstate', license.id))!.data).toEqual({ licenseId: license.id, expiresAtEpochMillis: expiry });
      expect(await t.admin('POST', `/licenses/${license.id}/reinstate`)).toMatchObject({ status: 409, json: { error: 'License is not revoked' } });
    });
  }

  it('a PUT clears the revoked state; the body is optional; 404 for an unknown license; licenses:write only', async () => {
    const license = await newLicense(t);
    const revoked = await t.admin('POST', `/licenses/${license.id}/revoke`);
    expect(revoked.json).toMatchObject({ revokedReason: null, revokedAtEpochMillis: expect.any(Number) });
    const put = await t.admin('PUT', `/licenses/${license.id}`, { body: putBody(revoked.json, { expiresAtEpochMillis: null }) });
    expect(put.json).toMatchObject({ revokedAtEpochMillis: null, revokedReason: null, expiresAtEpochMillis: null });
    expect(await t.admin('POST', `/licenses/${license.id}/reinstate`)).toMatchObject({ status: 409 });
    for (const action of ['revoke', 'reinstate']) {
      expect(await t.admin('POST', `/licenses/AAAAA-BBBBB-CCCCC-DDDDD-EEEEE/${action}`)).toMatchObject({ status: 404, json: { error: 'License not found' } });
    }
    const reader = await staffWith(t, ['licenses:read']);
    expect((await t.req('POST', `/licenses/${license.id}/revoke`, { token: reader.token })).status).toBe(403);
    for (const reason of ['', 42, 'x'.repeat(501)]) {
      const res = await t.admin('POST', `/licenses/${license.id}/revoke`, { body: { reason } });
      expect(res.status).toBe(400);
      expect(res.json.error).toContain('reason');
    }
    expect((await readLicense(t, license.id)).revokedAtEpochMillis).toBeNull();
  });

  it('racing revocations: exactly one succeeds, the others are 409, one audit entry', async () => {
    const license = await newLicense(t);
    const results = await Promise.all(Array.from({ length: 5 }, () => t.admin('POST', `/licenses/${license.id}/revoke`, { body: { reason: 'race' } })));
    expect(results.map((r) => r.status).sort()).toEqual([200, 409, 409, 409, 409]);
    expect((await auditEntries(t, 'licenses.revoke')).filter((e) => JSON.parse(e.data).licenseId === license.id)).toHaveLength(1);
    expect((await readLicense(t, license.id)).version).toBe(license.version + 1);
  });
});
