// License policies (DECISIONS.md "License policies"): expiry from creation or first
// validation, grace, features, revealed reasons, PATCH; on both databases, through HTTP.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEntries, createCustomer, createProduct, newLicense, putBody, readLicense, validate } from '../../../test/helpers/fixtures.js';
import { decodePayload, verifyJws } from '../../../test/helpers/jws.js';
import { DIALECTS, startTestApp, type TestApp } from '../../../test/helpers/test-app.js';

const DAY = 86_400_000;
const METRICS = 'metrics-token-0123456789abcdef';
const nonce = () => randomBytes(24).toString('base64url');
const receiptOf = (res: { headers: Record<string, unknown> }) => res.headers['validation-receipt'] as string;

describe.each(DIALECTS)('license policies (%s)', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(dialect, { VALIDATION_RATE_LIMIT: '100000', METRICS_TOKEN: METRICS });
  });
  afterAll(() => t.close());
  const metricOf = async (reason: string, outcome: string) => {
    const text = (await t.req('GET', '/metrics', { token: METRICS })).text;
    const line = text.split('\n').find((l) => l.startsWith('licensing_validations_total{') && l.includes(`reason="${reason}"`) && l.includes(`outcome="${outcome}"`));
    return line === undefined ? 0 : Number(line.split(' ').at(-1));
  };

  const jwks = async () => (await t.req('GET', '/.well-known/jwks.json')).json;
  const reasons = async (id: string) => (await readLicense(t, id)).validationAttempts.map((a) => a.reason);
  const startEntries = async (id: string) =>
    (await auditEntries(t, 'licenses.expiry.start')).filter((e) => JSON.parse(e.data).licenseId === id);

  it('refuses bad settings with 400 naming the field, and stores nothing', async () => {
    const bad: [Record<string, unknown>, RegExp][] = [
      [{ expiryBasis: 'creation' }, /validForDays/],
      [{ expiryBasis: 'firstValidation', validForDays: null }, /validForDays/],
      [{ validForDays: 14 }, /validForDays/], // fixed takes none
      [{ expiryBasis: 'later', validForDays: 3 }, /expiryBasis/],
      [{ expiryBasis: 'creation', validForDays: 0 }, /validForDays/],
      [{ expiryBasis: 'creation', validForDays: 36501 }, /validForDays/],
      [{ graceDays: 0 }, /graceDays/],
      [{ graceDays: 366 }, /graceDays/],
      [{ features: { 'Bad Key': true } }, /features/],
      [{ features: { ok: 1.5 } }, /features\.ok/],
      [{ features: { ok: 'x'.repeat(257) } }, /features\.ok/],
      [{ features: { ok: null } }, /features\.ok/], // a product has no keys to remove
      [{ features: Object.fromEntries(Array.from({ length: 65 }, (_, i) => [`f${i}`, true])) }, /features/],
      [{ revealReasons: 'yes' }, /revealReasons/],
    ];
    for (const [over, field] of bad) {
      const res = await t.admin('POST', '/products', { body: { name: 'p', productType: 'software', price: 1, requiresLicense: true, isSubscription: false, ...over } });
      expect(res.status, JSON.stringify(over)).toBe(400);
      expect(res.json.error).toMatch(field);
    }
    const license = await newLicense(t);
    for (const [over, field] of [[{ expiryBasis: 'firstValidation' }, /validForDays/], [{ features: { '-x': 1 } }, /features/]] as const) {
      const res = await t.admin('PATCH', `/licenses/${license.id}`, { body: over });
      expect(res.status).toBe(400);
      expect(res.json.error).toMatch(field);
    }
    expect((await readLicense(t, license.id)).version).toBe(1); // nothing committed
  });

  it('inherits the product settings; features apply live and a license null removes a key', async () => {
    const product = await createProduct(t, {
      expiryBasis: 'creation', validForDays: 30, graceDays: 3, features: { pro: true, seats: 5, tier: 'pro' }, revealReasons: true,
    });
    expect(product).toMatchObject({ expiryBasis: 'creation', validForDays: 30, graceDays: 3, revealReasons: true });
    const before = Date.now();
    const license = await newLicense(t, { productId: product.id, expiresAtEpochMillis: undefined, features: { seats: 10, tier: null } });
    expect(license).toMatchObject({
      expiryBasis: 'creation', validForDays: 30, graceDays: 3, revealReasons: null,
      features: { seats: 10, tier: null }, effectiveFeatures: { pro: true, seats: 10 },
    });
    expect(license.expiresAtEpochMillis).toBe(license.createdAtEpochMillis + 30 * DAY);
    expect(license.expiryStartedAtEpochMillis).toBe(license.createdAtEpochMillis);
    expect(license.createdAtEpochMillis).toBeGreaterThanOrEqual(before);
    // the tier changes: the license sees it at once
    const patched = await t.admin('PATCH', `/products/${product.id}`, { body: { features: { pro: false, beta: 'yes' } } });
    expect(patched.status).toBe(200);
    expect(patched.json).toMatchObject({ name: product.name, expiryBasis: 'creation', features: { pro: false, beta: 'yes' } });
    expect((await readLicense(t, license.id)).effectiveFeatures).toEqual({ pro: false, beta: 'yes', seats: 10 });
    // an explicit expiry wins over the basis; a basis given on the license wins over the product's
    const explicit = await newLicense(t, { productId: product.id, expiresAtEpochMillis: null });
    expect(explicit.expiresAtEpochMillis).toBeNull();
    const fixed = await newLicense(t, { productId: product.id, expiresAtEpochMillis: undefined, expiryBasis: 'fixed' });
    expect(fixed).toMatchObject({ expiryBasis: 'fixed', validForDays: null, expiresAtEpochMillis: null, expiryStartedAtEpochMillis: null });
  });

  it('gives licenses the marketplace webhook creates the product policy (the basis sets the expiry)', async () => {
    const sell = async (over: Record<string, unknown>) => {
      const product = await createProduct(t, { marketplaceResourceId: `res-${randomBytes(4).toString('hex')}`, ...over });
      const fields = { secret: 'test-marketplace-secret', user_id: `u${randomBytes(4).toString('hex')}`, resource_id: (product as { marketplaceResourceId: string }).marketplaceResourceId };
      const res = await t.req('POST', '/marketplace', { form: fields });
      expect(res.status, res.text).toBe(200);
      return readLicense(t, res.text);
    };
    const trial = await sell({ expiryBasis: 'firstValidation', validForDays: 14, graceDays: 2, features: { pro: true }, isSubscription: true, recurringPeriodDays: 30 });
    expect(trial).toMatchObject({
      expiryBasis: 'firstValidation', validForDays: 14, graceDays: 2, expiresAtEpochMillis: null, expiryStartedAtEpochMillis: null,
      features: {}, effectiveFeatures: { pro: true },
    });
    const before = Date.now();
    const plan = await sell({ expiryBasis: 'creation', validForDays: 30, isSubscription: true, recurringPeriodDays: 365 });
    expect(plan.expiresAtEpochMillis).toBe(plan.createdAtEpochMillis + 30 * DAY);
    expect(plan.createdAtEpochMillis).toBeGreaterThanOrEqual(before);
  });

  it('starts a first-validation clock on the first passing validation only, once, audited', async () => {
    const product = await createProduct(t, { expiryBasis: 'firstValidation', validForDays: 14, maxHwids: 1 });
    const license = await newLicense(t, { productId: product.id, expiresAtEpochMillis: undefined, maxHwids: undefined });
    expect(license).toMatchObject({ expiryBasis: 'firstValidation', validForDays: 14, expiresAtEpochMillis: null, expiryStartedAtEpochMillis: null });
    const other = await createProduct(t);
    // refused validations start nothing
    expect((await validate(t, { licenseId: license.id, productId: other.id, hwid: 'H1' })).json).toEqual({ valid: false });
    let now = await readLicense(t, license.id);
    expect(now).toMatchObject({ expiresAtEpochMillis: null, expiryStartedAtEpochMillis: null, version: 1 });
    const first = await validate(t, { licenseId: license.id, productId: product.id, hwid: 'H1', nonce: nonce() });
    expect(first.json).toEqual({ valid: true });
    const receipt = verifyJws(receiptOf(first), await jwks()).payload;
    now = await readLicense(t, license.id);
    expect(now.expiryStartedAtEpochMillis).toBe(receipt.timestampEpochMillis);
    expect(now.expiresAtEpochMillis).toBe((receipt.timestampEpochMillis as number) + 14 * DAY);
    expect(receipt.expiresAtEpochMillis).toBe(now.expiresAtEpochMillis);
    expect(now.version).toBe(2);
    // a second HWID is refused by its limit and a later valid one changes nothing
    expect((await validate(t, { licenseId: license.id, productId: product.id, hwid: 'H2' })).json).toEqual({ valid: false });
    expect((await validate(t, { licenseId: license.id, productId: product.id, hwid: 'H1' })).json).toEqual({ valid: true });
    const after = await readLicense(t, license.id);
    expect(after).toMatchObject({ expiresAtEpochMillis: now.expiresAtEpochMillis, expiryStartedAtEpochMillis: now.expiryStartedAtEpochMillis, version: 2 });
    const entries = await startEntries(license.id);
    expect(entries).toHaveLength(1);
    expect(entries[0]!.performedBy).toBe('validation');
    expect(JSON.parse(entries[0]!.data)).toMatchObject({ licenseId: license.id, id: license.id, expiresAtEpochMillis: now.expiresAtEpochMillis, usedHwids: ['H1'] });
    expect(await reasons(license.id)).toEqual(['PRODUCT_MISMATCH', 'VALID', 'HWID_LIMIT_REACHED', 'VALID']);
  });

  it('starts the clock once under 20 concurrent first validations', async () => {
    const product = await createProduct(t, { expiryBasis: 'firstValidation', validForDays: 7 });
    const license = await newLicense(t, { productId: product.id, expiresAtEpochMillis: undefined });
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) => validate(t, { licenseId: license.id, productId: product.id, hwid: `H${i % 4}` }, `127.0.0.${2 + (i % 5)}`)),
    );
    expect(answers.every((a) => a.json.valid === true)).toBe(true);
    const after = await readLicense(t, license.id);
    expect(after.version).toBe(2);
    expect(after.validationAttempts).toHaveLength(20);
    expect(await startEntries(license.id)).toHaveLength(1);
    expect(after.expiresAtEpochMillis).toBe(after.expiryStartedAtEpochMillis! + 7 * DAY);
  });

  it('a staff PATCH that sets the expiry starts the clock, and validation does not restart it', async () => {
    const product = await createProduct(t, { expiryBasis: 'firstValidation', validForDays: 7 });
    const license = await newLicense(t, { productId: product.id, expiresAtEpochMillis: undefined });
    const at = Date.now() + 3 * DAY;
    const patched = await t.admin('PATCH', `/licenses/${license.id}`, { body: { expiresAtEpochMillis: at } });
    expect(patched.json).toMatchObject({ expiresAtEpochMillis: at, version: 2 });
    expect(patched.json.expiryStartedAtEpochMillis).toEqual(expect.any(Number));
    expect((await validate(t, { licenseId: license.id, productId: product.id, hwid: 'H' })).json).toEqual({ valid: true });
    expect((await readLicense(t, license.id)).expiresAtEpochMillis).toBe(at); // not restarted
    expect(await startEntries(license.id)).toHaveLength(0);
  });

  it('grace: a bound HWID validates with GRACE, also from a new address (not bound); a new HWID is GRACE_UNBOUND; after it, expired', async () => {
    const product = await createProduct(t, { graceDays: 2, revealReasons: true, maxHwids: 1 });
    const license = await newLicense(t, { productId: product.id, maxHwids: undefined, graceDays: undefined });
    expect(license.graceDays).toBe(2);
    const args = { licenseId: license.id, productId: product.id, hwid: 'BOUND' };
    expect((await validate(t, args)).json).toEqual({ valid: true, reason: 'VALID' });
    expect((await validate(t, args)).json).toEqual({ valid: true, reason: 'VALID' }); // PostgreSQL now remembers it
    const expiry = Date.now() - 3_600_000;
    expect((await t.admin('PATCH', `/licenses/${license.id}`, { body: { expiresAtEpochMillis: expiry } })).status).toBe(200);
    const inGrace = await validate(t, { ...args, nonce: nonce() });
    expect(inGrace.json).toEqual({ valid: true, reason: 'GRACE' });
    const receipt = verifyJws(receiptOf(inGrace), await jwks()).payload;
    expect(receipt).toMatchObject({ valid: true, reason: 'GRACE', expiresAtEpochMillis: expiry, graceEndsAtEpochMillis: expiry + 2 * DAY });
    // a new HWID in grace: refused as GRACE_UNBOUND; the bound HWID from a new address (a server
    // whose address changed) passes; nothing bound or released
    expect((await validate(t, { ...args, hwid: 'NEW' })).json).toEqual({ valid: false, reason: 'GRACE_UNBOUND' });
    expect((await validate(t, args, '127.0.0.9')).json).toEqual({ valid: true, reason: 'GRACE' });
    const during = await readLicense(t, license.id);
    expect(during.usedHwids).toEqual(['BOUND']);
    expect(during.usedIps).toEqual(['127.0.0.1']);
    // past the grace days
    expect((await t.admin('PATCH', `/licenses/${license.id}`, { body: { expiresAtEpochMillis: Date.now() - 3 * DAY } })).status).toBe(200);
    const past = await validate(t, { ...args, nonce: nonce() });
    expect(past.json).toEqual({ valid: false, reason: 'EXPIRED' });
    expect(decodePayload(receiptOf(past)).graceEndsAtEpochMillis).toBeNull();
    expect((await reasons(license.id)).slice(2)).toEqual(['GRACE', 'GRACE_UNBOUND', 'GRACE', 'EXPIRED']);
    expect(await metricOf('GRACE', 'valid')).toBeGreaterThanOrEqual(1);
  });

  it('a revoked license is REVOKED, never in grace; reinstated, it validates again', async () => {
    const product = await createProduct(t, { graceDays: 5, revealReasons: true });
    const license = await newLicense(t, { productId: product.id, graceDays: undefined });
    const args = { licenseId: license.id, productId: product.id, hwid: 'H' };
    expect((await validate(t, args)).json).toEqual({ valid: true, reason: 'VALID' });
    expect((await t.admin('POST', `/licenses/${license.id}/revoke`, { body: { reason: 'refund' } })).status).toBe(200);
    expect((await validate(t, args)).json).toEqual({ valid: false, reason: 'REVOKED' });
    // the product check comes first
    expect((await validate(t, { ...args, productId: 'other' })).json).toEqual({ valid: false, reason: 'PRODUCT_MISMATCH' });
    expect((await t.admin('POST', `/licenses/${license.id}/reinstate`)).status).toBe(200);
    expect((await validate(t, args)).json).toEqual({ valid: true, reason: 'VALID' });
    expect(await reasons(license.id)).toEqual(['VALID', 'REVOKED', 'PRODUCT_MISMATCH', 'VALID']);
    expect(await metricOf('REVOKED', 'invalid')).toBeGreaterThanOrEqual(1); // its own metrics label
  });

  it('reveals reasons per product, overridden per license, never for an unknown license', async () => {
    const product = await createProduct(t, { revealReasons: true, maxHwids: 1 });
    const revealed = await newLicense(t, { productId: product.id, maxHwids: undefined });
    const hidden = await newLicense(t, { productId: product.id, maxHwids: undefined, revealReasons: false });
    await validate(t, { licenseId: revealed.id, productId: product.id, hwid: 'A' });
    await validate(t, { licenseId: hidden.id, productId: product.id, hwid: 'A' });
    const full = await validate(t, { licenseId: revealed.id, productId: product.id, hwid: 'B', nonce: nonce() });
    expect(full.json).toEqual({ valid: false, reason: 'HWID_LIMIT_REACHED' });
    expect(decodePayload(receiptOf(full)).reason).toBe('HWID_LIMIT_REACHED');
    const bare = await validate(t, { licenseId: hidden.id, productId: product.id, hwid: 'B', nonce: nonce() });
    expect(bare.json).toEqual({ valid: false });
    expect(decodePayload(receiptOf(bare))).not.toHaveProperty('reason');
    const unknown = await validate(t, { licenseId: 'NOPE0-NOPE0-NOPE0-NOPE0-NOPE0', productId: product.id, hwid: 'B', nonce: nonce() });
    expect(unknown.json).toEqual({ valid: false });
    expect(decodePayload(receiptOf(unknown))).toMatchObject({ valid: false, features: {}, expiresAtEpochMillis: null });
    // the product's setting is read live
    expect((await t.admin('PATCH', `/products/${product.id}`, { body: { revealReasons: false } })).status).toBe(200);
    expect((await validate(t, { licenseId: revealed.id, productId: product.id, hwid: 'A' })).json).toEqual({ valid: true });
  });

  it('signs the effective features and slot timeout into receipts (also remembered bound ones) and license files', async () => {
    const product = await createProduct(t, { features: { pro: true, seats: 3 }, slotTimeoutMinutes: 60 });
    const license = await newLicense(t, { productId: product.id, features: { seats: 8 }, slotTimeoutMinutes: undefined });
    const args = { licenseId: license.id, productId: product.id, hwid: 'H' };
    for (let i = 0; i < 3; i++) {
      const res = await validate(t, { ...args, nonce: nonce() });
      const payload = verifyJws(receiptOf(res), await jwks()).payload;
      expect(payload).toMatchObject({ valid: true, features: { pro: true, seats: 8 }, slotTimeoutMinutes: 60, graceEndsAtEpochMillis: null, expiresAtEpochMillis: null });
    }
    // a product change reaches the next receipt, also on PostgreSQL's remembered path
    expect((await t.admin('PATCH', `/products/${product.id}`, { body: { features: { pro: false } } })).status).toBe(200);
    const changed = decodePayload(receiptOf(await validate(t, { ...args, nonce: nonce() })));
    expect(changed.features).toEqual({ pro: false, seats: 8 });
    const file = await t.admin('POST', `/licenses/${license.id}/license-file`);
    expect(file.status).toBe(200);
    expect(verifyJws(file.json.licenseFile, await jwks()).payload).toMatchObject({
      features: { pro: false, seats: 8 }, slotTimeoutMinutes: 60, graceEndsAtEpochMillis: null,
    });
  });

  it('PATCH sets what is given and keeps the rest (history too); PUT replaces, clearing the new settings', async () => {
    const license = await newLicense(t, { maxIps: 2, graceDays: 4, features: { a: 1 }, revealReasons: true });
    await validate(t, { licenseId: license.id, productId: license.productId, hwid: 'H' });
    const patched = await t.admin('PATCH', `/licenses/${license.id}`, { body: { maxHwids: 3 } });
    expect(patched.status).toBe(200);
    expect(patched.json).toMatchObject({ maxIps: 2, maxHwids: 3, graceDays: 4, features: { a: 1 }, revealReasons: true, version: 2, usedHwids: ['H'] });
    expect(patched.json.validationAttempts).toHaveLength(1);
    const audit = (await auditEntries(t, 'licenses.update')).find((e) => JSON.parse(e.data).id === license.id)!;
    expect(audit.performedBy).toBe('root');
    expect(JSON.parse(audit.data)).toMatchObject({ maxHwids: 3, version: 2, validationAttemptCount: 1 });
    const stale = await t.admin('PATCH', `/licenses/${license.id}`, { body: { version: 1, maxIps: 9 } });
    expect(stale.status).toBe(409);
    expect(stale.json).toEqual({ error: 'Version conflict: expected 2, got 1' });
    expect((await t.admin('PATCH', `/licenses/${license.id}`, { body: { version: 2, usedHwids: [] } })).json).toMatchObject({ usedHwids: [], version: 3 });
    expect((await t.admin('PATCH', `/licenses/${license.id}`, { body: {} })).status).toBe(400);
    expect((await t.admin('PATCH', '/licenses/NOPE0-NOPE0-NOPE0-NOPE0-NOPE0', { body: { maxIps: 1 } })).status).toBe(404);
    const current = await readLicense(t, license.id);
    const { expiryBasis: _b, validForDays: _v, graceDays: _g, features: _f, revealReasons: _r, expiryStartedAtEpochMillis: _s, effectiveFeatures: _e, ...rest } = current;
    const put = await t.admin('PUT', `/licenses/${license.id}`, { body: putBody(rest as never) });
    expect(put.status, put.text).toBe(200);
    expect(put.json).toMatchObject({ expiryBasis: 'fixed', validForDays: null, graceDays: null, features: {}, effectiveFeatures: {}, revealReasons: null });
  });

  it('PATCH on products and customers keeps the fields not given, audited as .update', async () => {
    const product = await createProduct(t, { maxIps: 2, description: 'd' });
    const p = await t.admin('PATCH', `/products/${product.id}`, { body: { graceDays: 3 } });
    expect(p.json).toMatchObject({ id: product.id, name: product.name, maxIps: 2, description: 'd', graceDays: 3 });
    expect((await t.admin('PATCH', `/products/${product.id}`, { body: { expiryBasis: 'creation' } })).json.error).toMatch(/validForDays/);
    expect((await t.admin('PATCH', '/products/nope', { body: { graceDays: 3 } })).status).toBe(404);
    const customer = await createCustomer(t, { note: 'vip', socials: { twitter: 'acme' } });
    const c = await t.admin('PATCH', `/customers/${customer.id}`, { body: { email: 'new@example.com' } });
    expect(c.json).toMatchObject({ name: customer.name, email: 'new@example.com', note: 'vip', socials: { twitter: 'acme' } });
    expect((await t.admin('PATCH', `/customers/${customer.id}`, { body: { email: 'bad' } })).json.error).toMatch(/email/);
    expect((await auditEntries(t, 'customers.update')).some((e) => JSON.parse(e.data).email === 'new@example.com')).toBe(true);
    expect((await auditEntries(t, 'products.update')).some((e) => JSON.parse(e.data).graceDays === 3)).toBe(true);
  });
});
