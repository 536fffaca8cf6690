// Factories that create fresh records through the API for one test.
import { randomBytes } from 'node:crypto';
import { newLicenseKey } from '../../src/lib/ids.js';
import type { License } from '../../src/modules/licenses/licenses.schemas.js';
import type { TestApp } from './test-app.js';

export const uniq = (prefix = 'x') => `${prefix}_${randomBytes(5).toString('hex')}`;

export async function createRole(t: TestApp, permissions: string[], name = uniq('role')) {
  const res = await t.admin('POST', '/roles', { body: { name, permissions } });
  if (res.status !== 201) throw new Error(`createRole: ${res.status} ${res.text}`);
  return res.json as { id: string; name: string; permissions: string[] };
}

export async function generateKey(t: TestApp): Promise<string> {
  const res = await t.admin('POST', '/admin/registration-keys', { body: {} });
  if (res.status !== 201) throw new Error(`generateKey: ${res.status} ${res.text}`);
  return (res.json as { key: string }).key;
}

export interface StaffAccount {
  id: string;
  username: string;
  password: string;
  token: string;
}

/** Registers an account holding one fresh role with exactly `permissions`, and logs it in. */
export async function staffWith(t: TestApp, permissions: string[]): Promise<StaffAccount> {
  const role = await createRole(t, permissions);
  const username = uniq('user');
  const password = `pw-${randomBytes(8).toString('hex')}`;
  const reg = await t.req('POST', '/staff/register', {
    body: { registrationKey: await generateKey(t), username, email: `${username}@example.com`, password, roleIds: [role.id] },
  });
  if (reg.status !== 201) throw new Error(`register: ${reg.status} ${reg.text}`);
  const login = await t.req('POST', '/auth/login', { body: { username, password } });
  if (login.status !== 200) throw new Error(`login: ${login.status} ${login.text}`);
  return { id: (reg.json as { id: string }).id, username, password, token: (login.json as { token: string }).token };
}

/** Audit entries with the given name, newest first. */
export async function auditEntries(t: TestApp, name?: string) {
  const res = await t.admin('GET', `/actions?limit=1000${name ? `&name=${encodeURIComponent(name)}` : ''}`);
  return res.json as { id: string; name: string; performedBy: string; timestampEpochMillis: number; data: string }[];
}

// ---- customers, products, orders -------------------------------------------

export const customerBody = (over: Record<string, unknown> = {}) => {
  const name = uniq('customer');
  return { name, email: `${name}@example.com`, ...over };
};

export async function createCustomer(t: TestApp, over: Record<string, unknown> = {}) {
  const res = await t.admin('POST', '/customers', { body: customerBody(over) });
  if (res.status !== 201) throw new Error(`createCustomer: ${res.status} ${res.text}`);
  return res.json as { id: string; name: string; email: string; socials: Record<string, string>; note: string | null; createdAtEpochMillis: number };
}

export const productBody = (over: Record<string, unknown> = {}) => ({
  name: uniq('product'), productType: 'software', price: 19.99, requiresLicense: true, isSubscription: false, ...over,
});

export async function createProduct(t: TestApp, over: Record<string, unknown> = {}) {
  const res = await t.admin('POST', '/products', { body: productBody(over) });
  if (res.status !== 201) throw new Error(`createProduct: ${res.status} ${res.text}`);
  return res.json as { id: string; name: string; price: number; maxIps: number | null; maxHwids: number | null; marketplaceResourceId: string | null; polymartProductId: string | null; createdAtEpochMillis: number };
}

/** An order for a fresh customer and product unless `over` names them. */
export async function createOrder(t: TestApp, over: Record<string, unknown> = {}) {
  const body: Record<string, unknown> = { totalAmount: 10, ...over };
  body.customerId ??= (await createCustomer(t)).id;
  body.productIds ??= [(await createProduct(t)).id];
  const res = await t.admin('POST', '/orders', { body });
  if (res.status !== 201) throw new Error(`createOrder: ${res.status} ${res.text}`);
  return res.json as { id: string; customerId: string; productIds: string[]; totalAmount: number; licenseIds: string[]; createdAtEpochMillis: number };
}

/** A license row written straight to the database (for tests that only need one to exist). */
export async function insertLicenseRow(t: TestApp, productId: string, customerId: string): Promise<string> {
  const id = newLicenseKey();
  await t.app.db
    .insertInto('licenses')
    .values({ id, product_id: productId, customer_id: customerId, expires_at: null, max_ips: null, max_hwids: null, version: 1, created_at: Date.now() })
    .execute();
  return id;
}

// ---- licenses and validation ----------------------------------------------

/** A license; a fresh product and customer unless `over` names them. Limits default to unlimited. */
export async function newLicense(t: TestApp, over: Record<string, unknown> = {}): Promise<License> {
  const body: Record<string, unknown> = { expiresAtEpochMillis: null, maxIps: null, maxHwids: null, ...over };
  body.productId ??= (await createProduct(t)).id;
  body.customerId ??= (await createCustomer(t)).id;
  const res = await t.admin('POST', '/licenses', { body });
  if (res.status !== 201) throw new Error(`newLicense: ${res.status} ${res.text}`);
  return res.json;
}

export async function readLicense(t: TestApp, id: string): Promise<License> {
  const res = await t.admin('GET', `/licenses/${id}`);
  if (res.status !== 200) throw new Error(`readLicense: ${res.status} ${res.text}`);
  return res.json;
}

/** PUT body carrying every field of `license`, with overrides. */
export function putBody(license: License, over: Record<string, unknown> = {}): Record<string, unknown> {
  const { id: _id, createdAtEpochMillis: _created, ...fields } = license;
  return { ...fields, ...over };
}

export interface ValidateArgs {
  licenseId: string;
  productId: string;
  hwid: string;
}

export const validate = (t: TestApp, body: ValidateArgs | Record<string, unknown>, localAddress = '127.0.0.1') =>
  t.req('POST', '/licenses/validate', { body, localAddress });
