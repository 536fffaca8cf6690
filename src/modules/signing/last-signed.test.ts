// Issue #28: each signing key says when it last signed, so the Master Admin can judge when
// no installed copy needs a retired key. The key ring keeps the time in memory (no I/O per
// signature), writes it at most once a minute per key and instance, never moves it back,
// and writes what is left at shutdown; another instance sees it once written.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newLicense } from '../../../test/helpers/fixtures.js';
import { useTestClock } from '../../../test/helpers/clock.js';
import { createTestDatabase, DIALECTS, startTestApp, type TestApp, type TestDatabase } from '../../../test/helpers/test-app.js';
import { until } from '../../../test/helpers/until.js';
import { LAST_SIGNED_PERSIST_MS } from './key-ring.js';
import * as repo from './signing.repository.js';

interface KeyView {
  kid: string;
  state: string;
  lastSignedAtEpochMillis: number | null;
}

const keysOf = async (t: TestApp) => {
  const res = await t.admin('GET', '/admin/signing-keys');
  expect(res.status).toBe(200);
  return res.json as KeyView[];
};
const lastSigned = async (t: TestApp, kid: string) => (await keysOf(t)).find((k) => k.kid === kid)!.lastSignedAtEpochMillis;
const stored = async (t: TestApp, kid: string) => {
  const row = await t.app.db.selectFrom('signing_keys').select('last_signed_at').where('kid', '=', kid).executeTakeFirstOrThrow();
  return row.last_signed_at === null ? null : Number(row.last_signed_at);
};

async function signedValidation(t: TestApp, license: { id: string; productId: string }, pinned?: string) {
  const res = await t.req('POST', '/licenses/validate', {
    body: { licenseId: license.id, productId: license.productId, hwid: 'machine', nonce: randomBytes(32).toString('base64url') },
    headers: pinned ? { 'receipt-key-ids': pinned } : {},
  });
  expect(res.status).toBe(200);
  expect(res.headers['validation-receipt']).toBeTruthy();
}

describe.each(DIALECTS)('signing keys: when each key last signed (%s)', (dialect) => {
  let database: TestDatabase;
  let a: TestApp;
  let b: TestApp;
  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    a = await startTestApp(dialect, { VALIDATION_RATE_LIMIT: '100000' }, database);
    b = await startTestApp(dialect, { VALIDATION_RATE_LIMIT: '100000' }, database);
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await database?.drop();
  });

  it('is null until a key signs; a receipt sets it at once here and, written through, on the other instance', async () => {
    const [current] = await keysOf(a);
    expect(current).toMatchObject({ state: 'current', lastSignedAtEpochMillis: null });
    const license = await newLicense(a);
    // A validation without a nonce signs nothing.
    expect((await a.req('POST', '/licenses/validate', { body: { licenseId: license.id, productId: license.productId, hwid: 'machine' } })).status).toBe(200);
    expect(await lastSigned(a, current!.kid)).toBeNull();

    const before = Date.now();
    await signedValidation(a, license);
    const first = await lastSigned(a, current!.kid);
    expect(first).toBeGreaterThanOrEqual(before);
    expect(first).toBeLessThanOrEqual(Date.now());
    // The first signature of a key is written at once (off the request path): b reads it.
    await until('the first signature time on the other instance', () => lastSigned(b, current!.kid), (at) => at === first);
  });

  it('a retired key that signs for a client pinning only it shows its own time; the current one keeps its own', async () => {
    const [old] = await keysOf(a);
    const oldBefore = await lastSigned(a, old!.kid);
    const next = (await a.admin('POST', '/admin/signing-keys')).json as KeyView;
    expect((await a.admin('POST', `/admin/signing-keys/${next.kid}/activate`)).status).toBe(200);
    const license = await newLicense(a);
    await signedValidation(a, license, old!.kid); // an installed copy that pins only the old key
    const keys = await keysOf(a);
    expect(keys.find((k) => k.kid === next.kid)!.lastSignedAtEpochMillis).toBeNull();
    expect(keys.find((k) => k.kid === old!.kid)).toMatchObject({ state: 'retired' });
    expect(keys.find((k) => k.kid === old!.kid)!.lastSignedAtEpochMillis).toBeGreaterThan(oldBefore!);
    await signedValidation(a, license, next.kid);
    expect(await lastSigned(a, next.kid)).not.toBeNull();
  });

  it('writes at most once a minute per key: later signatures show here at once and reach the database a minute on', async () => {
    const [current] = await keysOf(a);
    const license = await newLicense(a);
    // The current key (activated above) wrote its first signature.
    const written = await until('the first signature time stored', () => stored(a, current!.kid), (at) => at !== null);
    for (let i = 0; i < 5; i += 1) await signedValidation(a, license);
    // A license file is signed too.
    expect((await a.admin('POST', `/licenses/${license.id}/license-file`, { body: {} })).status).toBe(200);
    const latest = await lastSigned(a, current!.kid);
    expect(latest).toBeGreaterThan(written!);
    // A write starts with the signature that makes it, off the request path: give one that
    // was wrongly started time to land before checking that none did.
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await stored(a, current!.kid)).toBe(written); // six signatures, no write
    expect(await lastSigned(b, current!.kid)).toBe(written); // b knows what was written

    // A minute after the last write, the next signature is written.
    const time = useTestClock();
    time.freeze();
    time.set(written! + LAST_SIGNED_PERSIST_MS);
    await signedValidation(a, license);
    await until('the signature a minute on stored', () => stored(a, current!.kid), (at) => at === written! + LAST_SIGNED_PERSIST_MS);
    await until('the signature a minute on, on the other instance', () => lastSigned(b, current!.kid), (at) => at === written! + LAST_SIGNED_PERSIST_MS);
  });

  it('never moves a stored time back (an instance with an older time writes nothing)', async () => {
    const [current] = await keysOf(a);
    const now = (await stored(a, current!.kid))!;
    await repo.recordLastSigned(b.app.db, current!.kid, now - 5_000);
    expect(await stored(a, current!.kid)).toBe(now);
    await repo.recordLastSigned(b.app.db, current!.kid, now + 1);
    expect(await stored(a, current!.kid)).toBe(now + 1);
  });

  it('writes the times not yet written when an instance shuts down', async () => {
    const c = await startTestApp(dialect, { VALIDATION_RATE_LIMIT: '100000' }, database);
    // A key of its own (the earlier tests wrote times a minute ahead for the current one).
    const current = (await c.admin('POST', '/admin/signing-keys', { body: { activateNow: true } })).json as KeyView;
    const license = await newLicense(c);
    await signedValidation(c, license);
    await until('the first signature time stored', () => stored(c, current!.kid), (at) => at !== null);
    useTestClock().advance(5); // the next signature is later than the one written
    await signedValidation(c, license);
    const latest = await lastSigned(c, current!.kid);
    expect(await stored(c, current!.kid)).toBeLessThan(latest!);
    await c.close();
    expect(await stored(a, current!.kid)).toBe(latest);
  });
});
