// Rotation that strands no installed client (DECISIONS.md): next, current and retired keys,
// activation as its own step, Receipt-Key-Ids choosing among the keys a client pins, and
// deletion as the kill switch. A "client" here verifies each receipt against the key set it
// pinned, exactly as the shipped clients do.
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { auditEntries, newLicense, validate } from '../../../test/helpers/fixtures.js';
import { verifyJws, type Jwk } from '../../../test/helpers/jws.js';
import { DIALECTS, type TestApp } from '../../../test/helpers/test-app.js';
import { startTwoInstances } from '../../../test/helpers/two-instances.js';
import { until } from '../../../test/helpers/until.js';

const nonce = () => randomBytes(32).toString('base64url');
const jwksOf = async (t: TestApp) => (await t.req('GET', '/.well-known/jwks.json')).json as { keys: Jwk[] };
const kidsOf = (set: { keys: Jwk[] }) => set.keys.map((k) => k.kid);

/** The receipt of one validation sent with `Receipt-Key-Ids: pinned` (none when undefined). */
async function receipt(t: TestApp, licenseId: string, productId: string, pinned?: string): Promise<string> {
  const res = await t.req('POST', '/licenses/validate', {
    body: { licenseId, productId, hwid: 'machine', nonce: nonce() },
    headers: pinned === undefined ? {} : { 'receipt-key-ids': pinned },
  });
  expect(res.status).toBe(200);
  expect(res.json).toEqual({ valid: true });
  return res.headers['validation-receipt'] as string;
}

/** Whether a client that pinned `set` accepts the receipt (a genuine signature by one of its keys). */
const verifies = (jws: string, set: { keys: Jwk[] }) => {
  try {
    verifyJws(jws, set);
    return true;
  } catch {
    return false;
  }
};

const kidOf = (jws: string) => JSON.parse(Buffer.from(jws.split('.')[0]!, 'base64url').toString()).kid as string;

describe.each(DIALECTS)('signing-key rotation that strands no installed client (%s)', (dialect) => {
  let a: TestApp;
  let b: TestApp;
  startTwoInstances(dialect, { VALIDATION_RATE_LIMIT: '100000' }, (started) => ({ a, b } = started));

  it('a client pinned to the old set verifies through create-next, activate and until the old key is deleted; one pinned to both throughout', async () => {
    const license = await newLicense(a);
    const v = (pinned: { keys: Jwk[] }, t = a) => receipt(t, license.id, license.productId, kidsOf(pinned).join(', '));
    const oldSet = await jwksOf(a);
    const [oldKid] = kidsOf(oldSet);
    expect(verifies(await v(oldSet), oldSet)).toBe(true);

    const next = await a.admin('POST', '/admin/signing-keys');
    expect(next.status).toBe(201);
    expect(next.json).toMatchObject({ state: 'next', current: false, retiredAtEpochMillis: null });
    const bothSet = await jwksOf(a);
    expect(kidsOf(bothSet)).toEqual([oldKid, next.json.kid]); // current, then next
    // The next key is published but never signs, whoever asks for it.
    for (const pinned of [oldSet, bothSet, { keys: [bothSet.keys[1]!] }]) expect(kidOf(await v(pinned))).toBe(oldKid);
    expect(kidOf(await receipt(a, license.id, license.productId))).toBe(oldKid);

    const activated = await a.admin('POST', `/admin/signing-keys/${next.json.kid}/activate`);
    expect(activated.status).toBe(200);
    expect(activated.json).toMatchObject({ kid: next.json.kid, state: 'current', current: true });
    expect(kidsOf(await jwksOf(a))).toEqual([next.json.kid, oldKid]);
    for (const t of [a, b]) {
      // instance b re-reads its keys within a second
      await until('the activated key signing', async () => kidOf(await receipt(t, license.id, license.productId)), (kid) => kid === next.json.kid, { timeoutMs: 3000 });
      expect(verifies(await v(oldSet, t), oldSet)).toBe(true); // the retired key signs for the old copy
      expect(kidOf(await v(oldSet, t))).toBe(oldKid);
      const both = await v(bothSet, t);
      expect(kidOf(both)).toBe(next.json.kid); // the current key when the client lists it
      expect(verifies(both, bothSet)).toBe(true);
    }

    expect((await a.admin('DELETE', `/admin/signing-keys/${oldKid}`)).status).toBe(204);
    expect(kidsOf(await jwksOf(a))).toEqual([next.json.kid]);
    for (const t of [a, b]) {
      await until('the deleted key no longer signing', async () => verifies(await v(oldSet, t), oldSet), (still) => !still, { timeoutMs: 3000 }); // the kill switch
      expect(kidOf(await v(oldSet, t))).toBe(next.json.kid);
      expect(verifies(await v(bothSet, t), bothSet)).toBe(true);
    }

    const created = JSON.parse((await auditEntries(a, 'signingKey.create'))[0]!.data);
    expect(created).toEqual({ kid: next.json.kid, x: expect.any(String), state: 'next' });
    const activation = JSON.parse((await auditEntries(a, 'signingKey.activate'))[0]!.data);
    expect(activation).toEqual({ kid: next.json.kid, x: created.x, retiredKid: oldKid });
    expect(JSON.stringify(await auditEntries(a))).not.toMatch(/PRIVATE KEY/);
  });

  it('a Receipt-Key-Ids header that is malformed, huge or lists unknown kids is ignored: 200, signed by the current key', async () => {
    const license = await newLicense(a);
    const current = kidsOf(await jwksOf(a))[0]!;
    const headers = [
      'unknown-kid-1, unknown-kid-2',
      ',,, ,',
      '"quoted", <script>, kid with spaces, ä',
      Array.from({ length: 400 }, (_, i) => `kid-${i}`).join(', '), // ~4.5 KB
      'x'.repeat(8000),
    ];
    for (const header of headers) expect(kidOf(await receipt(a, license.id, license.productId, header))).toBe(current);
  });

  it('answers 409 for a second next key, for activating what is not next and for deleting the current key; 404 for an unknown kid', async () => {
    const first = await a.admin('POST', '/admin/signing-keys');
    expect(first.status).toBe(201);
    const second = await a.admin('POST', '/admin/signing-keys');
    expect(second.status).toBe(409);
    expect(second.json.error).toMatch(/next key exists/);
    const current = (await a.admin('GET', '/admin/signing-keys')).json.find((k: { state: string }) => k.state === 'current').kid;
    expect((await a.admin('POST', `/admin/signing-keys/${current}/activate`)).status).toBe(409);
    expect((await a.admin('POST', '/admin/signing-keys/no-such-kid/activate')).status).toBe(404);
    expect((await a.admin('DELETE', `/admin/signing-keys/${current}`)).status).toBe(409);
    // a next key may be deleted (a release that never shipped)
    expect((await a.admin('DELETE', `/admin/signing-keys/${first.json.kid}`)).status).toBe(204);
    expect(kidsOf(await jwksOf(a))).not.toContain(first.json.kid);
  });

  it('two instances activating the same next key at once: one succeeds, one current key remains', async () => {
    const next = (await a.admin('POST', '/admin/signing-keys')).json;
    const results = await Promise.all([a, b].map((t) => t.admin('POST', `/admin/signing-keys/${next.kid}/activate`)));
    expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
    const keys = (await b.admin('GET', '/admin/signing-keys')).json as { kid: string; state: string }[];
    expect(keys.filter((k) => k.state === 'current').map((k) => k.kid)).toEqual([next.kid]);
    expect(keys.filter((k) => k.state === 'next')).toEqual([]);
  });
});
