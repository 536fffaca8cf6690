// Assertions shared by the record modules' tests.
import { expect } from 'vitest';
import { auditEntries } from './fixtures.js';
import type { TestApp } from './test-app.js';

export const newestAuditId = async (t: TestApp) => (await auditEntries(t))[0]?.id;

/** The `name` entry whose snapshot is the record `id`. */
export const auditEntryFor = async (t: TestApp, name: string, id: string) =>
  (await auditEntries(t, name)).find((e) => (JSON.parse(e.data) as { id: string }).id === id);

/**
 * `send` fails with `status` and exactly `{error}`, and neither the records listed at
 * `listPath` nor the audit log change.
 */
export async function expectRejected(
  t: TestApp,
  listPath: string,
  send: () => Promise<{ status: number; json: any }>,
  status: number,
  error: string | RegExp,
): Promise<void> {
  const [before, listBefore] = [await newestAuditId(t), (await t.admin('GET', listPath)).json];
  const res = await send();
  expect(res.status).toBe(status);
  expect(Object.keys(res.json)).toEqual(['error']);
  if (typeof error === 'string') expect(res.json.error).toBe(error);
  else expect(res.json.error).toMatch(error);
  expect(await newestAuditId(t)).toBe(before);
  expect((await t.admin('GET', listPath)).json).toEqual(listBefore);
}
