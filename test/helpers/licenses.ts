// Factories for license tests: a fresh product, customer and license through the API,
// and a validation call from a chosen source address.
import { randomBytes } from 'node:crypto';
import type { License } from '../../src/modules/licenses/licenses.schemas.js';
import type { TestApp } from './test-app.js';

const uniq = (prefix: string) => `${prefix}_${randomBytes(5).toString('hex')}`;

export async function newProduct(t: TestApp, over: Record<string, unknown> = {}): Promise<{ id: string }> {
  const body = { name: uniq('product'), productType: 'software', price: 10, requiresLicense: true, isSubscription: false, ...over };
  const res = await t.admin('POST', '/products', { body });
  if (res.status !== 201) throw new Error(`newProduct: ${res.status} ${res.text}`);
  return res.json;
}

export async function newCustomer(t: TestApp): Promise<{ id: string }> {
  const name = uniq('customer');
  const res = await t.admin('POST', '/customers', { body: { name, email: `${name}@example.com` } });
  if (res.status !== 201) throw new Error(`newCustomer: ${res.status} ${res.text}`);
  return res.json;
}

/** A license; a fresh product and customer unless `over` names them. Limits default to unlimited. */
export async function newLicense(t: TestApp, over: Record<string, unknown> = {}): Promise<License> {
  const body: Record<string, unknown> = { expiresAtEpochMillis: null, maxIps: null, maxHwids: null, ...over };
  body.productId ??= (await newProduct(t)).id;
  body.customerId ??= (await newCustomer(t)).id;
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
