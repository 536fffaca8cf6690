// One decision for every path: a check added to VALIDATION_CHECKS is obeyed by the SQLite
// batch, the PostgreSQL lock-free read, its row-locked binding path, and its fast path for a
// license + IP + HWID it saw bound and valid (which used to decide by a partial rule of its own).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newLicense, readLicense, validate } from '../../../test/helpers/fixtures.js';
import { DIALECTS, startTestApp, type TestApp } from '../../../test/helpers/test-app.js';
import { VALIDATION_CHECKS, type ValidationCheck } from './validation.decision.js';

describe.each(DIALECTS)('one decision for every path (%s)', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(dialect, { VALIDATION_RATE_LIMIT: '100000' });
  });
  afterAll(() => t.close());

  it('a check added to the decision refuses bound, new and remembered machines alike', async () => {
    const license = await newLicense(t);
    const bound = { licenseId: license.id, productId: license.productId, hwid: 'HW-BOUND' };
    // Binds, then is decided lock-free and remembered, then from what was remembered (PostgreSQL's fast path).
    for (let i = 0; i < 3; i += 1) expect((await validate(t, bound)).json).toEqual({ valid: true });

    const seen: boolean[] = [];
    const refuseThisProduct: ValidationCheck = (facts) => {
      if (facts.requestedProductId !== license.productId) return undefined;
      seen.push(facts.hwid.bound);
      return { valid: false, reason: 'BLOCKED', bindIp: false, bindHwid: false, releaseIps: 0, releaseHwids: 0 };
    };
    VALIDATION_CHECKS.unshift(refuseThisProduct);
    try {
      expect((await validate(t, bound)).json).toEqual({ valid: false });
      expect((await validate(t, bound)).json).toEqual({ valid: false });
      expect((await validate(t, { ...bound, hwid: 'HW-NEW' })).json).toEqual({ valid: false });
    } finally {
      VALIDATION_CHECKS.shift();
    }
    expect(seen.length).toBeGreaterThanOrEqual(3);
    const after = await readLicense(t, license.id);
    expect(after.validationAttempts.map((a) => a.reason)).toEqual(['VALID', 'VALID', 'VALID', 'BLOCKED', 'BLOCKED', 'BLOCKED']);
    expect(after.usedHwids).toEqual(['HW-BOUND']);
    // Without the check the remembered machine is valid again.
    expect((await validate(t, bound)).json).toEqual({ valid: true });
  });
});
